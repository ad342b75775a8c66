import type { ImportSummary } from './dataset-importer';

const n = (v: number) => v.toLocaleString('en-US');

/** The closing report of `dataset:import`, as plain text lines. */
export function formatImportSummary(s: ImportSummary): string {
  const lines = [
    `Imported ${s.country} dataset "${s.datasetName}" (${s.format}, produced ${s.producedAt.toISOString().slice(0, 10)} according to the ${s.producedAtSource})`,
    `  records read   ${n(s.recordsRead)}`,
    `  upserted       ${n(s.inserted + s.updated)} (inserted ${n(s.inserted)}, updated ${n(s.updated)}; ${n(s.unchanged)} unchanged${s.superseded ? `, ${n(s.superseded)} repeated in the file` : ''})`,
    `  rejected       ${n(s.rejected.total)}`,
  ];
  for (const r of s.rejected.reasons) {
    const examples = r.examples
      .map((e) => `${e.entry ? `${e.entry} ` : ''}#${e.at}${e.detail ? ` ${e.detail}` : ''}`)
      .join('; ');
    lines.push(`    - ${r.reason}: ${n(r.count)}${examples ? ` (e.g. ${examples})` : ''}`);
  }
  if (s.skipped.total > 0) {
    lines.push(
      `  skipped        ${n(s.skipped.total)} (${s.skipped.reasons.map((r) => `${r.reason}: ${n(r.count)}`).join(', ')})`,
    );
  }
  lines.push(`  dataset rows   ${n(s.datasetRows)} ${s.country} rows from "${s.datasetName}" in the table`);
  lines.push(`  time           ${s.seconds.toFixed(1)} s, ${n(Math.round(s.rowsPerSecond))} rows/s (${s.writer})`);
  return lines.join('\n');
}
