import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithPromtool, promtool } from '../support/prometheus';

const OPS = join(__dirname, '..', '..', 'ops');

/**
 * The alert rules and the Grafana dashboard of docs/operations.md#metrics: promtool accepts the
 * rules and their unit tests pass (that every metric they name is served is checked against a
 * real page in test/e2e/metrics.e2e-spec.ts).
 */
describeWithPromtool('ops/prometheus alert rules')('ops/prometheus alert rules', () => {
  it('promtool check rules accepts them', () => {
    const r = promtool(['check', 'rules', join(OPS, 'prometheus/alerts.yml')]);
    expect(r.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(r.code).toBe(0);
  });

  it("the dashboard's queries are valid PromQL (checked by promtool as recording rules)", () => {
    const dashboard = JSON.parse(readFileSync(join(OPS, 'grafana/registry-lookup.json'), 'utf8')) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    // Grafana's variables, as Grafana fills them in.
    const exprs = dashboard.panels
      .flatMap((p) => p.targets.map((t) => t.expr))
      .map((e) => e.replaceAll('$__rate_interval', '1m').replaceAll('$job', '.*'));
    const rules = exprs
      .map((e, i) => `      - record: dashboard:query${i}\n        expr: ${JSON.stringify(e)}`)
      .join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'rl-dashboard-'));
    try {
      const file = join(dir, 'dashboard-rules.yml');
      writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules}\n`);
      const r = promtool(['check', 'rules', file]);
      expect(r.output).toContain(`SUCCESS: ${exprs.length} rules found`);
      expect(r.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('their unit tests pass (promtool test rules)', () => {
    const r = promtool(['test', 'rules', join(OPS, 'prometheus/alerts.test.yml')]);
    expect(r.output).toContain('SUCCESS');
    expect(r.code).toBe(0);
  });
});

describe('ops/grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(join(OPS, 'grafana/registry-lookup.json'), 'utf8')) as {
    uid: string;
    title: string;
    templating: { list: Array<{ name: string; type: string }> };
    panels: Array<{ id: number; title: string; datasource: { uid: string }; targets: Array<{ expr: string }> }>;
  };

  it('is an importable dashboard: a data source variable, panels with unique ids, each with a query on it', () => {
    expect(dashboard).toMatchObject({ uid: 'registry-lookup', title: 'Registry Lookup' });
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource' }),
    );
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) {
      expect([p.title, p.datasource.uid]).toEqual([p.title, '${datasource}']);
      expect(p.targets.length).toBeGreaterThan(0);
      for (const t of p.targets) expect(t.expr).toMatch(/\w+/);
    }
  });
});
