import type { z } from 'zod';
import type {
  companyResponseSchema,
  registerListSchema,
  searchResponseSchema,
  statusReportSchema,
} from './mcp-schemas';

/*
 * The short text a model reads first in a tool result (the full JSON follows in a second
 * text block and in structuredContent).
 */

const SHOWN = 5;

function provenance(official: boolean, status: string, warning: string | undefined): string {
  if (status === 'live' && official) return '';
  return ` WARNING (register ${status}): ${warning ?? 'records are not an official live read.'}`;
}

export function summarizeSearch(r: z.output<typeof searchResponseSchema>): string {
  const where = `${r.register.short} (${r.countryName}, register ${r.register.status})`;
  if (!r.resolved)
    return `No company in ${where} matches "${r.query}" (resolved: false).${provenance(true, r.register.status, r.warning)}`;
  const lines = r.results.slice(0, SHOWN).map((c) => {
    const status = c.status ? `${c.status} (${c.statusCategory})` : c.statusCategory;
    return `- ${c.name} — ${c.registrationNumber}, ${status}${c.city ? `, ${c.city}` : ''}; source ${c.source.kind}${c.source.official ? ', official' : ', NOT official'}, read ${c.source.retrievedAt}`;
  });
  const more = r.count > SHOWN ? `\n(and ${r.count - SHOWN} more in the JSON)` : '';
  const official = r.results.every((c) => c.source.official);
  return `${r.count} compan${r.count === 1 ? 'y' : 'ies'} in ${where} for "${r.query}":\n${lines.join('\n')}${more}${provenance(official, r.register.status, r.warning)}`;
}

export function summarizeCompany(r: z.output<typeof companyResponseSchema>): string {
  const c = r.company;
  const facts = [
    c.status ? `status ${c.status} (${c.statusCategory})` : `status ${c.statusCategory}`,
    c.legalForm,
    c.address,
    c.incorporationDate ? `incorporated ${c.incorporationDate}` : null,
  ].filter(Boolean);
  const current = c.officers?.filter((o) => o.resignedOn === null) ?? null;
  const officers =
    current === null
      ? 'officers: not published by this source'
      : `${current.length} current officer${current.length === 1 ? '' : 's'}${
          current.length
            ? `: ${current
                .slice(0, SHOWN)
                .map((o) => `${o.name} (${o.role})`)
                .join(', ')}${current.length > SHOWN ? ', …' : ''}`
            : ''
        }`;
  return `${c.name} — ${c.registrationNumber} (${r.country}, ${r.register.short}): ${facts.join('; ')}. ${officers}. Source: ${c.source.url} (${c.source.kind}${c.source.official ? ', official' : ', NOT official'}, read ${c.source.retrievedAt}).${provenance(c.source.official, r.register.status, r.warning)}`;
}

export function summarizeRegisters(r: z.output<typeof registerListSchema>): string {
  if (r.count === 0) return 'No register matches these filters.';
  const lines = r.registers.map((g) => {
    const provides = Object.entries(g.provides)
      .filter(([, v]) => v)
      .map(([k]) => k);
    return `- ${g.country} ${g.short}: ${g.status}${g.statusReason ? ` (${g.statusReason})` : ''}; provides ${provides.length ? provides.join(', ') : 'basic records only'}; live reads from ${g.liveSource.kind}${g.liveSource.official ? '' : ' (not official)'}`;
  });
  return `${r.count} register${r.count === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}

export function summarizeStatus(r: z.output<typeof statusReportSchema>): string {
  const pct = (u: number | null) => (u === null ? 'no probes' : `${(u * 100).toFixed(2)}%`);
  const lines = r.registers.map(
    (g) =>
      `- ${g.country} ${g.short}: ${g.status}${g.statusReason ? ` (${g.statusReason})` : ''}; uptime 24h ${pct(g.uptime['24h'].uptime)}, 30d ${pct(g.uptime['30d'].uptime)}; last probe ${g.lastProbe ? `${g.lastProbe.ok ? 'ok' : `failed (${g.lastProbe.errorClass ?? 'error'})`} at ${g.lastProbe.at}` : 'none yet'}`,
  );
  return `Register status at ${r.generatedAt} (probes every ${r.probeIntervalSeconds} s):\n${lines.join('\n')}`;
}
