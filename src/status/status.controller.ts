import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublicErrors } from '../platform/openapi/api-public-errors.decorator';
import { StatusReportDto } from './dto/status-report.dto';
import { StatusReportService } from './status-report.service';

@ApiTags('registers')
@Controller('api/public/v1/status')
export class StatusController {
  constructor(private readonly reports: StatusReportService) {}

  @Get()
  @ApiOperation({
    summary: 'Uptime of each register from scheduled probes',
    description:
      'Per register: current status, uptime over 24 h / 7 d / 30 d / 90 d, the last probe, the last success, and one figure per UTC day for 90 days.',
  })
  @ApiOkResponse({ type: StatusReportDto })
  @ApiPublicErrors()
  report(): Promise<StatusReportDto> {
    return this.reports.report();
  }
}
