import { bool, ConfigError, nonEmpty, url } from '../platform/config/app-config';
import { LEI_DEFINITION, leiEndpointEnvVar } from './lei/lei.definition';
import { COUNTRY_CODES, type CountryCode, REGISTERS } from './registers';
import { LEI_INDEX, type SourceId } from './source-id';

/** One register's settings under the current environment. */
export interface RegisterConfig {
  /** Base URL per PURPOSE, from REGISTER_<CC>_<PURPOSE>_URL or the register's default. */
  urls: Record<string, string>;
  /** Credential per NAME, from REGISTER_<CC>_<NAME>; absent when not configured. */
  credentials: Record<string, string | undefined>;
  /** Operator pause: REGISTER_<CC>_PAUSED=true. */
  paused: boolean;
}

/**
 * Every register's own variables (REGISTER_<CC>_<PURPOSE>_URL, its credentials,
 * REGISTER_<CC>_PAUSED), read from what each register declares and validated once at boot;
 * and the LEI index's base URLs (REGISTER_LEI_API_URL, REGISTER_LEI_WEB_URL).
 */
export class RegistersConfig {
  constructor(
    private readonly byCountry: Record<CountryCode, RegisterConfig>,
    /** GLEIF's base URLs by PURPOSE (API, WEB). */
    readonly lei: { urls: Record<string, string> } = { urls: defaultLeiUrls() },
  ) {}

  of(country: CountryCode): RegisterConfig {
    return this.byCountry[country];
  }

  /** The base URLs of a register or of the LEI index, by PURPOSE. */
  urlsOf(source: SourceId): Record<string, string> {
    return source === LEI_INDEX ? this.lei.urls : this.byCountry[source].urls;
  }

  /** Throws one ConfigError listing every bad value. */
  static fromEnv(env: NodeJS.ProcessEnv): RegistersConfig {
    const problems: string[] = [];
    const byCountry = {} as Record<CountryCode, RegisterConfig>;
    for (const country of COUNTRY_CODES) {
      const def = REGISTERS[country].definition;
      const urls: Record<string, string> = {};
      for (const [purpose, endpoint] of Object.entries(def.endpoints)) {
        const name = `REGISTER_${country}_${purpose}_URL`;
        const value = nonEmpty(env[name]) ?? endpoint.defaultUrl;
        if (!url.safeParse(value).success) problems.push(`${name}: must be an absolute URL`);
        urls[purpose] = value.replace(/\/+$/, '');
      }
      const credentials: Record<string, string | undefined> = {};
      for (const name of Object.keys(def.credentials)) credentials[name] = nonEmpty(env[`REGISTER_${country}_${name}`]);
      const pausedName = `REGISTER_${country}_PAUSED`;
      const paused = bool.safeParse(nonEmpty(env[pausedName]) ?? 'false');
      if (!paused.success) problems.push(`${pausedName}: must be true or false`);
      byCountry[country] = { urls, credentials, paused: paused.success && paused.data };
    }
    const leiUrls: Record<string, string> = {};
    for (const [purpose, endpoint] of Object.entries(LEI_DEFINITION.endpoints)) {
      const name = leiEndpointEnvVar(purpose as keyof typeof LEI_DEFINITION.endpoints);
      const value = nonEmpty(env[name]) ?? endpoint.defaultUrl;
      if (!url.safeParse(value).success) problems.push(`${name}: must be an absolute URL`);
      leiUrls[purpose] = value.replace(/\/+$/, '');
    }
    if (problems.length > 0) throw new ConfigError(problems);
    return new RegistersConfig(byCountry, { urls: leiUrls });
  }
}

function defaultLeiUrls(): Record<string, string> {
  return Object.fromEntries(Object.entries(LEI_DEFINITION.endpoints).map(([purpose, e]) => [purpose, e.defaultUrl]));
}
