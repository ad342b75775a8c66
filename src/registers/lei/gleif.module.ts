import { Module } from '@nestjs/common';
import { Clock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/app-config';
import { HttpClientFactory } from '../client/http-client.factory';
import { RegistersConfig } from '../register-config';
import { LEI_INDEX } from '../source-id';
import { GleifClient } from './gleif.client';

/**
 * The one GleifClient of a process, on the register HTTP client of the LEI index
 * (REGISTER_LEI_API_URL): its politeness (about 60 requests a minute, shared by every process
 * through Redis), its breaker, the User-Agent. Reads of one record wait REGISTER_TIMEOUT_MS and
 * are retried once; probes wait PROBE_TIMEOUT_MS; batched number lookups are never retried
 * (their caller's deadline is shorter than a retry).
 */
@Module({
  providers: [
    {
      provide: GleifClient,
      inject: [HttpClientFactory, RegistersConfig, AppConfig, Clock],
      useFactory: (http: HttpClientFactory, registers: RegistersConfig, config: AppConfig, clock: Clock) =>
        new GleifClient(http.forRegister(LEI_INDEX, 'API'), {
          clock,
          webUrl: registers.lei.urls.WEB,
          probeHttp: http.forRegister(LEI_INDEX, 'API', { timeoutMs: config.probe.timeoutMs, retries: 0 }),
          lookupHttp: http.forRegister(LEI_INDEX, 'API', { retries: 0 }),
        }),
    },
  ],
  exports: [GleifClient],
})
export class GleifModule {}
