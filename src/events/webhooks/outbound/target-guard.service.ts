import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../platform/config/app-config';
import { ApiError } from '../../../platform/errors/api-error';
import { AddressGuard } from './address-guard';
import { DnsResolver, ResolvedAddress } from './dns-resolver';
import { parseTargetUrl, TargetUrl, TargetUrlError } from './target-url';

/** How long saving an endpoint waits for its name to resolve. */
const SAVE_LOOKUP_TIMEOUT_MS = 3_000;

/**
 * The check of a webhook URL when an endpoint is saved: the URL itself, and every address
 * its host resolves to now. The same AddressGuard runs again on the address actually
 * connected to at every attempt (OutboundHttpClient), since a name may resolve elsewhere
 * later.
 */
@Injectable()
export class TargetGuard {
  readonly addresses: AddressGuard;
  private readonly logger = new Logger(TargetGuard.name);

  constructor(
    config: AppConfig,
    private readonly dns: DnsResolver,
  ) {
    this.addresses = new AddressGuard(config.webhooks.targetAllowlist);
    if (config.webhooks.targetAllowlist.length) {
      const ranges = config.webhooks.targetAllowlist.map(([a, bits]) => `${a.toString()}/${bits}`).join(', ');
      this.logger.warn(
        `WEBHOOK_TARGET_ALLOWLIST is set: webhooks may reach ${ranges} although these addresses are not public (local development and tests only)`,
      );
    }
  }

  /** The URL to store (normalised), or a 400 / 422 problem naming the field. */
  async checkForSave(raw: string, field = 'url'): Promise<string> {
    let target: TargetUrl;
    try {
      target = parseTargetUrl(raw);
    } catch (err) {
      if (err instanceof TargetUrlError && err.kind === 'invalid') {
        throw new ApiError('invalid_body', `${field}: ${err.message}.`, {
          errors: [{ field, code: 'invalid_url', message: err.message }],
        });
      }
      throw notAllowed(field, (err as Error).message);
    }
    if (target.isIp) {
      const why = this.addresses.refusal(target.host);
      if (why) throw notAllowed(field, `${target.host} is ${why}`);
      return target.url.href;
    }
    const resolved = await this.resolveForSave(target.host);
    const refused = resolved.map((r) => ({ r, why: this.addresses.refusal(r.address) })).find((x) => x.why);
    if (refused) throw notAllowed(field, `${target.host} resolves to ${refused.r.address}, ${refused.why}`);
    return target.url.href;
  }

  /**
   * A name that does not resolve (yet) is accepted: nothing can be reached through it now,
   * and every attempt checks the addresses it connects to.
   */
  private async resolveForSave(host: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.dns.resolve(host),
        new Promise<ResolvedAddress[]>((resolve) => {
          timer = setTimeout(() => resolve([]), SAVE_LOOKUP_TIMEOUT_MS);
        }),
      ]);
    } catch {
      return [];
    } finally {
      clearTimeout(timer);
    }
  }
}

function notAllowed(field: string, message: string): ApiError {
  return new ApiError('target_not_allowed', `${field}: ${message}. Webhooks may only reach public addresses.`, {
    errors: [{ field, code: 'target_not_allowed', message }],
  });
}
