// The JSON the pages read, as the API declares it (type-only: nothing of src/ is bundled).
export type {
  CompanyResponseDto as CompanyResponse,
  CompanyResultDto as CompanyResult,
  OfficerDto as Officer,
  SearchResponseDto as SearchResponse,
} from '../../src/search/dto/search-response.dto';
export type { RegisterDto as Register, RegisterListDto as RegisterList } from '../../src/status/dto/register.dto';
export type {
  DailyUptimeDto as DailyUptime,
  HealthReportDto as HealthReport,
  IndexStatusReportDto as IndexStatusReport,
  RegisterStatusReportDto as RegisterStatusReport,
  StatusReportDto as StatusReport,
  UptimeWindowDto as UptimeWindow,
} from '../../src/status/dto/status-report.dto';
export type { ProblemDetailsDto as Problem } from '../../src/platform/openapi/problem-details.dto';
export type { AccountDto as Account, SignupDto as Signup } from '../../src/events/accounts/dto/account.dto';
export type {
  AccessRequestDto as AccessRequest,
  AccessRequestListDto as AccessRequestList,
} from '../../src/events/accounts/dto/access-request.dto';
export type {
  WebhookEndpointDto as WebhookEndpoint,
  WebhookEndpointListDto as WebhookEndpointList,
  WebhookEndpointWithSecretDto as WebhookEndpointWithSecret,
} from '../../src/events/webhooks/endpoints/dto/webhook-endpoint.dto';
export type {
  DeliveryDetailDto as DeliveryDetail,
  DeliveryDto as Delivery,
  DeliveryListDto as DeliveryList,
} from '../../src/events/webhooks/delivery/dto/delivery.dto';
export type { SimulationResultDto as SimulationResult } from '../../src/events/simulator/dto/simulate.dto';
