import { loadConfig } from '../../src/app/config';
import { Clock } from '../../src/platform/clock';
import { HttpClientFactory } from '../../src/registers/client/http-client.factory';
import type { ConnectorDeps } from '../../src/registers/connector';
import type { CountryCode } from '../../src/registers/registers';
import { UpstreamError } from '../../src/registers/upstream-error';

type ConnectorClass<C> = new (deps: ConnectorDeps) => C;

/**
 * Builds a connector as the application does (config from env, the one HTTP client factory,
 * an injected clock) and keeps the factories so that `shutdown()` stops their limiters.
 */
export function connectorBuilder<C>(
  country: CountryCode,
  Connector: ConnectorClass<C>,
  clock: Clock,
  baseEnv: () => Record<string, string>,
) {
  const factories: HttpClientFactory[] = [];
  return {
    build(env: Record<string, string> = {}): C {
      const { app: config, registers } = loadConfig({ ...baseEnv(), ...env });
      const http = new HttpClientFactory(config, registers);
      factories.push(http);
      return new Connector({ settings: registers.of(country), config, http, clock });
    },
    shutdown(): void {
      factories.splice(0).forEach((f) => f.onApplicationShutdown());
    },
  };
}

/** The UpstreamError a read must fail with (the test fails if it resolves or throws anything else). */
export async function upstreamFailure(promise: Promise<unknown>): Promise<UpstreamError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
}
