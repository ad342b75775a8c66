/**
 * The admin socket speaks newline-delimited JSON. The client sends one request line; the
 * service answers with output lines and one final exit line.
 */
export interface AdminRequest {
  command: string;
  argv: string[];
  cwd: string;
}

export type AdminMessage = { type: 'out' | 'err'; line: string } | { type: 'exit'; code: number };

/** Most bytes of a request line (argv of a command is a few hundred bytes). */
export const MAX_REQUEST_BYTES = 64 * 1024;

export function isAdminRequest(value: unknown): value is AdminRequest {
  const v = value as AdminRequest | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.command === 'string' &&
    typeof v.cwd === 'string' &&
    Array.isArray(v.argv) &&
    v.argv.every((a) => typeof a === 'string')
  );
}
