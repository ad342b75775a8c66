import { Clock } from '../platform/clock';
import { AppConfig, ENV_VARIABLES } from '../platform/config/app-config';
import { PROBLEM_CODES, PROBLEMS } from '../platform/errors/problem-catalog';
import type { ConnectorSource } from '../registers/connector';
import { HttpClientFactory } from '../registers/client/http-client.factory';
import { LEI_DEFINITION, leiEndpointEnvVar } from '../registers/lei/lei.definition';
import { RegistersConfig } from '../registers/register-config';
import { CountryCode, REGISTER_TABLE, REGISTERS } from '../registers/registers';

/**
 * The documentation's tables, rendered from the code that decides them (the config schema, the
 * register table, the problem catalogue, the connectors). `npm run docs:readme` rewrites them in
 * the pages GENERATED_TABLES names; a unit test fails when a page and the code disagree.
 */
export function renderConfigTable(): string {
  const rows: string[][] = Object.entries(ENV_VARIABLES).map(([name, v]) => [`\`${name}\``, v.default, v.meaning]);
  for (const def of REGISTER_TABLE) {
    for (const [purpose, endpoint] of Object.entries(def.endpoints)) {
      rows.push([
        `\`REGISTER_${def.country}_${purpose}_URL\``,
        endpoint.defaultUrl,
        `${def.short}: ${endpoint.description}.`,
      ]);
    }
    for (const [name, credential] of Object.entries(def.credentials)) {
      const required = def.requiredCredentials.includes(name)
        ? ' Required for live reads: without it the register is paused.'
        : '';
      rows.push([
        `\`REGISTER_${def.country}_${name}\``,
        '(none)',
        `${def.short}: ${credential.description}.${required}`,
      ]);
    }
    rows.push([
      `\`REGISTER_${def.country}_PAUSED\``,
      'false',
      `true pauses ${def.short}: no live reads, no probes; searches answer from the fallback dataset.`,
    ]);
  }
  for (const [purpose, endpoint] of Object.entries(LEI_DEFINITION.endpoints)) {
    rows.push([
      `\`${leiEndpointEnvVar(purpose as keyof typeof LEI_DEFINITION.endpoints)}\``,
      endpoint.defaultUrl,
      `${LEI_DEFINITION.short} (the LEI index, not a register): ${endpoint.description}.`,
    ]);
  }
  return table(['Variable', 'Default', 'Meaning'], rows);
}

export type SourceOf = (country: CountryCode, withCredentials: boolean) => ConnectorSource & { paused: boolean };

export function renderCoverageTable(sourceOf: SourceOf): string {
  const describe = (s: ConnectorSource & { paused: boolean }) =>
    s.paused ? 'paused: fallback dataset only' : `${s.description} (${s.official ? 'official' : 'not official'})`;
  const rows = REGISTER_TABLE.map((def) => {
    const credentials = Object.keys(def.credentials)
      .map((n) => `\`REGISTER_${def.country}_${n}\``)
      .join(', ');
    return [
      `${def.country} — ${def.short}`,
      describe(sourceOf(def.country, false)),
      credentials ? `${describe(sourceOf(def.country, true))} — with ${credentials}` : 'no credential needed',
      def.officersNote,
      def.doesNotPublish,
    ];
  });
  return table(
    ['Register', 'Live source without credentials', 'With credentials', 'Officers', 'Not published / not served'],
    rows,
  );
}

/** How each register is watched for changes, from each register folder's change-detection plan. */
export function renderDetectionTable(): string {
  const rows = REGISTER_TABLE.map((def) => {
    const plan = REGISTERS[def.country].changeDetection.readme;
    return [`${def.country} — ${def.short}`, plan.how, plan.credentials, plan.delay];
  });
  return table(['Register', 'How changes are found', 'Credentials', 'Delay to expect'], rows);
}

export function renderErrorTable(): string {
  return table(
    ['HTTP', 'code', 'When'],
    PROBLEM_CODES.map((c) => [String(PROBLEMS[c].status), `\`${c}\``, PROBLEMS[c].description]),
  );
}

function table(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceSection(document: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = document.indexOf(start);
  const j = document.indexOf(end);
  if (i < 0 || j < i) throw new Error(`no ${name} section (${start} … ${end})`);
  return `${document.slice(0, i + start.length)}\n${content}\n${document.slice(j)}`;
}

/**
 * The live source each connector reads without and with its register's credentials, asked
 * of the connectors themselves (nothing is sent anywhere).
 */
export function connectorSources(): SourceOf {
  return (country, withCredentials) => {
    const def = REGISTER_TABLE.find((r) => r.country === country)!;
    const env: Record<string, string> = {};
    if (withCredentials)
      for (const name of Object.keys(def.credentials)) env[`REGISTER_${country}_${name}`] = 'configured';
    const config = AppConfig.fromEnv(env);
    const registers = RegistersConfig.fromEnv(env);
    const http = new HttpClientFactory(config, registers);
    const connector = REGISTERS[country].createConnector({
      settings: registers.of(country),
      config,
      http,
      clock: new Clock(),
    });
    return { ...connector.source(), paused: connector.unavailableReason() !== null };
  };
}

const TABLES: Record<string, () => string> = {
  'config-table': renderConfigTable,
  'coverage-table': () => renderCoverageTable(connectorSources()),
  'detection-table': renderDetectionTable,
  'error-table': renderErrorTable,
};

/** The pages (paths from the repository root) that hold generated tables, and which. */
export const GENERATED_TABLES: Record<string, string[]> = {
  'docs/api.md': ['coverage-table', 'error-table'],
  'docs/detection.md': ['detection-table'],
  'docs/operations.md': ['config-table'],
};

/** The page at `path` with each of its generated tables brought up to date. */
export function renderTables(path: string, document: string): string {
  return (GENERATED_TABLES[path] ?? []).reduce((out, name) => replaceSection(out, name, TABLES[name]()), document);
}
