import { DynamicModule, Global, Module } from '@nestjs/common';
import { HttpMetrics } from './http-metrics';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-server';

/** The process's metrics registry, which features add their metrics to, and the /metrics server (METRICS_PORT). */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(): DynamicModule {
    return {
      module: MetricsModule,
      providers: [Metrics, MetricsServer, HttpMetrics],
      exports: [Metrics, MetricsServer, HttpMetrics],
    };
  }
}
