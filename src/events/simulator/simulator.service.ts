import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { TestEventSender } from '../webhooks/events/test-event-sender.service';
import { SimulationResultDto, simulateSchema } from './dto/simulate.dto';
import { SampleEvents } from './sample-events';

/**
 * Sends one test event now, with real company data: a real, signed POST to one of the
 * account's endpoints, marked as test (see TestEventSender). Whether the send is allowed is
 * checked before the company is read, so a refused send costs the register nothing.
 */
@Injectable()
export class SimulatorService {
  constructor(
    private readonly sender: TestEventSender,
    private readonly samples: SampleEvents,
  ) {}

  async send(accountId: string, input: z.infer<typeof simulateSchema>): Promise<SimulationResultDto> {
    await this.sender.checkAllowed(accountId, input.endpointId);
    const data = await this.samples.data(accountId, input.event, input.country, input.registrationNumber);
    return this.sender.send(accountId, input.endpointId, input.event, data);
  }
}
