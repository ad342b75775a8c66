import { AppConfig } from '../config/app-config';
import { DEFAULT_COLLECTORS, Metrics } from './metrics';

describe('Metrics: Node’s default process metrics', () => {
  const page = (env: Record<string, string>) => new Metrics(AppConfig.fromEnv(env)).page();

  it('loads every default collector prom-client has, but its GC observer (a prom-client upgrade that adds one fails here)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { metricsList } = require('prom-client/lib/defaultMetrics') as { metricsList: string[] };
    expect([...DEFAULT_COLLECTORS, 'gc'].sort()).toEqual([...metricsList].sort());
  });

  it('serves the process figures without nodejs_gc_duration_seconds, unless METRICS_GC_DURATION asks for it', async () => {
    const without = await page({ METRICS_PORT: '9464' });
    for (const family of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_version_info',
    ])
      expect([family, without]).toEqual([family, expect.stringContaining(`# TYPE ${family} `)]);
    expect(without).not.toContain('nodejs_gc_duration_seconds');
    expect(without).not.toContain('nodejs_active_handles_total');

    const withGc = await page({ METRICS_PORT: '9464', METRICS_GC_DURATION: 'true' });
    expect(withGc).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('makes no registry page without METRICS_PORT', async () => {
    expect((await page({})).trim()).toBe('');
  });
});
