import type { AxiosInstance } from 'axios';
import type { ChangeSourceDeps, FilingHistory, StreamedFiling } from '../change-detection';
import { answeredOrNotFound, jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { chContext, parseFilingHistory, StreamContext } from './gb-stream-events';

/** The newest filings read: a gap of the filings stream is days, not a hundred filings of one company. */
const ITEMS = 100;

/**
 * A company's filing history from the Companies House Public Data API (REGISTER_GB_API_KEY):
 * what recovers the filings of a gap in the filings stream (a timepoint too old, HTTP 416).
 */
export class GbFilingHistory implements FilingHistory {
  private readonly client: AxiosInstance;
  private readonly key: string;
  private readonly context: StreamContext;

  constructor({ settings, http, clock }: ChangeSourceDeps) {
    this.client = http.forRegister('GB', 'API');
    this.key = settings.credentials.API_KEY ?? '';
    this.context = chContext(settings.urls.WEB, clock);
  }

  async read(registrationNumber: string): Promise<StreamedFiling[]> {
    let res;
    try {
      res = await this.client.get(`/company/${registrationNumber}/filing-history`, {
        params: { items_per_page: ITEMS },
        auth: { username: this.key, password: '' },
        validateStatus: answeredOrNotFound,
      });
    } catch (err) {
      throw UpstreamError.from(err);
    }
    if (res.status === 404) return [];
    return parseFilingHistory(jsonBody(res, 'Companies House'), registrationNumber, this.context);
  }
}
