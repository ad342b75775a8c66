import type { z } from 'zod';
import type {
  companyResponseSchema,
  eventListSchema,
  leiResponseSchema,
  registerListSchema,
  searchResponseSchema,
  statusReportSchema,
  watchCreatedSchema,
  watchListSchema,
  watchRemovedSchema,
  watchSchema,
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

function describeWatch(w: z.output<typeof watchSchema>): string {
  const company = w.companyName ? `${w.companyName} — ${w.registrationNumber}` : w.registrationNumber;
  const baseline =
    w.baseline.state === 'taken'
      ? `baseline read ${w.baseline.readAt} (${w.baseline.sourceMode})`
      : 'baseline pending (taken at the first successful read of the register)';
  const last = w.lastCheck.at ? `; last check ${w.lastCheck.at}: ${w.lastCheck.outcome}` : '';
  return `${company} (${w.country}, ${w.register.name}), watch ${w.id}, entity ${w.entityId}; ${baseline}${last}; next check ${w.nextCheckAt}${w.notifyNoChange ? '; no_change events on' : ''}`;
}

export function summarizeWatchCreated(r: z.output<typeof watchCreatedSchema>): string {
  return `${r.created ? 'Now watching' : 'Already watched'}: ${describeWatch(r.watch)}.`;
}

export function summarizeWatches(r: z.output<typeof watchListSchema>): string {
  if (r.data.length === 0) return r.nextCursor ? 'No watch on this page.' : 'The account watches no company.';
  const lines = r.data.slice(0, SHOWN * 2).map((w) => `- ${describeWatch(w)}`);
  const more = r.data.length > SHOWN * 2 ? `\n(and ${r.data.length - SHOWN * 2} more in the JSON)` : '';
  const next = r.nextCursor ? '\nMore watches: call again with cursor = nextCursor.' : '';
  return `${r.data.length} watch${r.data.length === 1 ? '' : 'es'}:\n${lines.join('\n')}${more}${next}`;
}

export function summarizeWatchRemoved(r: z.output<typeof watchRemovedSchema>): string {
  return `Watch ${r.watchId} removed: no more events about that company for this account.`;
}

export function summarizeEvents(r: z.output<typeof eventListSchema>): string {
  if (r.data.length === 0) return r.nextCursor ? 'No event on this page.' : 'No event matches.';
  const lines = r.data.slice(0, SHOWN * 2).map((e) => {
    const data = (e.payload.data ?? {}) as Record<string, unknown>;
    const change = data.change as { field?: string; previous?: unknown; current?: unknown } | null | undefined;
    const company =
      typeof data.company_name === 'string'
        ? ` ${data.company_name} (${String(data.entity_id)}${typeof data.sequence === 'number' ? `, sequence ${data.sequence}` : ''})`
        : typeof data.country === 'string'
          ? ` register ${data.country}`
          : '';
    const what = change?.field
      ? `: ${change.field} ${JSON.stringify(change.previous ?? null)} → ${JSON.stringify(change.current ?? null)}`
      : '';
    return `- ${e.createdAt} ${e.event}${e.isTest ? ' (TEST)' : ''}${company}${what} [${e.id}]`;
  });
  const more = r.data.length > SHOWN * 2 ? `\n(and ${r.data.length - SHOWN * 2} more in the JSON)` : '';
  const next = r.nextCursor ? '\nOlder events: call again with cursor = nextCursor.' : '';
  return `${r.data.length} event${r.data.length === 1 ? '' : 's'}, newest first (full payloads in the JSON):\n${lines.join('\n')}${more}${next}`;
}
