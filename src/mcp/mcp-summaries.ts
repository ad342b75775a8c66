import type { z } from 'zod';
import type {
  companyResponseSchema,
  leiResponseSchema,
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
    return `- ${c.name} — ${c.registrationNumber}${c.lei ? ` (LEI ${c.lei})` : ''}, ${status}${c.city ? `, ${c.city}` : ''}; source ${c.source.kind}${c.source.official ? ', official' : ', NOT official'}, read ${c.source.retrievedAt}`;
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
    c.lei ? `LEI ${c.lei}` : null,
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
  if (r.count === 0 && r.indexes.length === 0) return 'No register matches these filters.';
  const lines = r.registers.map((g) => {
    const provides = Object.entries(g.provides)
      .filter(([, v]) => v)
      .map(([k]) => k);
    return `- ${g.country} ${g.short}: ${g.status}${g.statusReason ? ` (${g.statusReason})` : ''}; provides ${provides.length ? provides.join(', ') : 'basic records only'}; live reads from ${g.liveSource.kind}${g.liveSource.official ? '' : ' (not official)'}`;
  });
  const indexes = r.indexes.map(
    (i) => `- ${i.id} ${i.short} (index, not a register): ${i.status}${i.statusReason ? ` (${i.statusReason})` : ''}`,
  );
  return `${r.count} register${r.count === 1 ? '' : 's'}:\n${lines.join('\n')}${indexes.length ? `\nIndexes:\n${indexes.join('\n')}` : ''}`;
}

export function summarizeStatus(r: z.output<typeof statusReportSchema>): string {
  const pct = (u: number | null) => (u === null ? 'no probes' : `${(u * 100).toFixed(2)}%`);
  const lines = [
    ...r.registers.map((g) => ({ ...g, key: g.country })),
    ...r.indexes.map((g) => ({ ...g, key: g.id })),
  ].map(
    (g) =>
      `- ${g.key} ${g.short}: ${g.status}${g.statusReason ? ` (${g.statusReason})` : ''}; uptime 24h ${pct(g.uptime['24h'].uptime)}, 30d ${pct(g.uptime['30d'].uptime)}; last probe ${g.lastProbe ? `${g.lastProbe.ok ? 'ok' : `failed (${g.lastProbe.errorClass ?? 'error'})`} at ${g.lastProbe.at}` : 'none yet'}`,
  );
  return `Register status at ${r.generatedAt} (probes every ${r.probeIntervalSeconds} s):\n${lines.join('\n')}`;
}

export function summarizeLei(r: z.output<typeof leiResponseSchema>): string {
  const e = r.entity;
  const address = [...e.legalAddress.lines, e.legalAddress.city, e.legalAddress.country].join(', ');
  const registered = e.registeredAt.id
    ? `registered at ${e.registeredAt.name ?? e.registeredAt.id}${e.registeredAs ? ` as ${e.registeredAs}` : ''}`
    : 'no registration authority given';
  const national = e.nationalRecord
    ? ` National record here: get_company country ${e.nationalRecord.country}, registrationNumber ${e.nationalRecord.registrationNumber}.`
    : '';
  const lapsed =
    e.registrationStatus === 'LAPSED'
      ? ' (LAPSED: the LEI was not renewed in time; it does not mean the entity was dissolved)'
      : '';
  return `${e.legalName.name} — LEI ${e.lei}: entity ${e.entityStatus}, LEI ${e.registrationStatus}${lapsed}; legal form ${e.legalForm.elfCode ?? e.legalForm.other ?? 'not given'}; jurisdiction ${e.jurisdiction ?? 'not given'}; legal address ${address}; ${registered}.${national} Source: ${e.source.url} (${e.source.kind}, official for the LEI record only, read ${e.source.retrievedAt}). ${r.provenanceNote}`;
}
