import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_VARIABLES } from '../platform/config/app-config';
import { REGISTER_TABLE } from '../registers/registers';
import { renderReadme } from './readme-tables';

describe('README', () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

  it('has the configuration, coverage and error tables the code generates (run `npm run docs:readme` after a change)', () => {
    expect(readme).toBe(renderReadme(readme));
  });

  it('documents every variable the service reads, and every register variable', () => {
    for (const name of Object.keys(ENV_VARIABLES)) expect(readme).toContain(`\`${name}\``);
    for (const def of REGISTER_TABLE) {
      for (const purpose of Object.keys(def.endpoints))
        expect(readme).toContain(`\`REGISTER_${def.country}_${purpose}_URL\``);
      for (const name of Object.keys(def.credentials)) expect(readme).toContain(`\`REGISTER_${def.country}_${name}\``);
    }
  });

  it('says which source answers each register without and with credentials', () => {
    const coverage = readme.slice(
      readme.indexOf('<!-- coverage-table:start -->'),
      readme.indexOf('<!-- coverage-table:end -->'),
    );
    expect(coverage).toMatch(/DK — CVR \| paused: fallback dataset only/);
    expect(coverage).toMatch(/FR — INSEE Sirene \| .*recherche-entreprises.*\(not official\)/);
  });
});
