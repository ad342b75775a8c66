import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiPublicErrors } from '../core/openapi/api-public-errors.decorator';
import { REGISTER_STATUSES } from '../status/register-status';
import { RegisterListDto } from './dto/register.dto';
import { PROVIDES_VALUES, RegistersService } from './registers.service';

@ApiTags('registers')
@Controller('api/public/v1/registers')
export class RegistersController {
  constructor(private readonly registers: RegistersService) {}

  @Get()
  @ApiOperation({ summary: 'Registers the service reads', description: 'Every register, from the same table the service itself uses, with its capabilities and current health.' })
  @ApiQuery({ name: 'provides', required: false, isArray: true, enum: PROVIDES_VALUES, style: 'form', explode: false, description: `Keep registers providing every listed capability (comma-separated): ${PROVIDES_VALUES.join(', ')}.`, example: ['officers'] })
  @ApiQuery({ name: 'status', required: false, isArray: true, enum: REGISTER_STATUSES, style: 'form', explode: false, description: `Keep registers in any listed status (comma-separated): ${REGISTER_STATUSES.join(', ')}.`, example: ['live'] })
  @ApiOkResponse({ type: RegisterListDto })
  @ApiPublicErrors('invalid_parameter')
  list(@Res() res: Response): void | Promise<void> {
    // The query read from the request rather than as two @Query parameters: Nest resolves
    // every parameter through its own promise, on the most frequent request there is.
    const { provides, status } = res.req.query as Record<string, unknown>;
    if (provides !== undefined || status !== undefined) return this.registers.list({ provides, status }).then((list) => void res.json(list));
    // The unfiltered list: its JSON, bytes and ETag made once per change of the list
    // (RegistersService.listJson), and sent without waiting while the statuses are fresh.
    const json = this.registers.listJsonIfFresh();
    if (json === undefined) return this.registers.listJson().then((fresh) => this.sendList(fresh, res));
    this.sendList(json, res);
  }

  private sendList(json: string, res: Response): void {
    if (this.tagged?.json !== json) {
      const body = Buffer.from(json, 'utf8');
      const etagOf = res.app.get('etag fn') as ((body: Buffer) => string) | undefined;
      this.tagged = { json, body, etag: etagOf?.(body) };
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    // The ETag Express would compute from this body, so If-None-Match still gets its 304.
    if (this.tagged.etag) res.setHeader('ETag', this.tagged.etag);
    // Sent here, as bytes: Nest would serialize a Buffer as JSON, and Express would copy a
    // string into a new buffer and re-parse the Content-Type for its charset on every request.
    res.send(this.tagged.body);
  }

  /** The last JSON served, its bytes and its ETag. */
  private tagged?: { json: string; body: Buffer; etag: string | undefined };
}
