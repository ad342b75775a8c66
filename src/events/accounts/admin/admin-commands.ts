import type { AdminCommand } from '../../../platform/admin/admin-command';
import { Clock } from '../../../platform/clock';
import { AccessRequestStore, AccessRequestWithEmail } from '../access-request-store';
import { AccountStore } from '../account-store';
import { AccessRequestAdmin, AdminCommandError } from './access-request-admin.service';

export interface CommandResult {
  /** Process exit code: 0 done, 1 refused or failed, 2 misused. */
  code: number;
  output: string;
}

export const ADMIN_USAGE = [
  'usage: npm run admin -- <command>',
  '  access-requests list [--state pending|approved|rejected|all]   (default: pending)',
  '  access-requests approve <id>',
  '  access-requests reject <id> --reason "…"',
].join('\n');

/**
 * The admin commands, from argv to text: the same whether the CLI runs them on Postgres
 * or they reach the running embedded service through its admin channel.
 */
export async function runAccessRequestCommand(
  argv: readonly string[],
  admin: AccessRequestAdmin,
): Promise<CommandResult> {
  const [group, command, ...rest] = argv;
  if (group !== 'access-requests' || !command) return { code: 2, output: ADMIN_USAGE };
  try {
    switch (command) {
      case 'list': {
        const state = option(rest, '--state') ?? 'pending';
        if (!['pending', 'approved', 'rejected', 'all'].includes(state))
          return { code: 2, output: `--state must be pending, approved, rejected or all\n${ADMIN_USAGE}` };
        const rows = await admin.list(state as 'pending');
        return {
          code: 0,
          output: rows.length
            ? rows.map(describe).join('\n\n')
            : `no ${state === 'all' ? '' : `${state} `}access requests`,
        };
      }
      case 'approve': {
        const id = rest[0];
        if (!id || id.startsWith('--')) return { code: 2, output: ADMIN_USAGE };
        const row = await admin.approve(id);
        return {
          code: 0,
          output: `approved ${row.id}: live events of account ${row.accountId} (${row.email}) are sent from now on`,
        };
      }
      case 'reject': {
        const id = rest[0];
        const reason = option(rest, '--reason');
        if (!id || id.startsWith('--') || !reason?.trim()) return { code: 2, output: ADMIN_USAGE };
        const row = await admin.reject(id, reason);
        return {
          code: 0,
          output: `rejected ${row.id} (account ${row.accountId}, ${row.email}): ${row.decisionReason}`,
        };
      }
      default:
        return { code: 2, output: ADMIN_USAGE };
    }
  } catch (err) {
    if (err instanceof AdminCommandError) return { code: 1, output: err.message };
    throw err;
  }
}

/**
 * `npm run admin -- …` as an operator command: run where the database is (Postgres, the free
 * embedded directory, or inside the running embedded service over its admin socket).
 */
export const ADMIN_COMMAND: AdminCommand = {
  name: 'admin',
  async run({ argv, dataSource, io }) {
    const admin = new AccessRequestAdmin(
      dataSource,
      new AccessRequestStore(dataSource),
      new AccountStore(),
      new Clock(),
    );
    const result = await runAccessRequestCommand(argv, admin);
    for (const line of result.output.split('\n')) (result.code === 0 ? io.out : io.err)(line);
    return result.code;
  },
};

/** A flag's value; '' for a flag given without one (`--state` last, or before another flag), never the default. */
function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1] === undefined || args[i + 1].startsWith('--') ? '' : args[i + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

function describe(r: AccessRequestWithEmail): string {
  return [
    `${r.id}  ${r.state}  ${r.createdAt.toISOString()}  account ${r.accountId} <${r.email}>`,
    `  countries ${r.countries.join(', ')}; ${r.monthlyVolume} events/month; ${r.events.join(', ')}`,
    `  use case: ${r.useCase.replace(/\s+/g, ' ')}`,
    ...(r.decisionReason ? [`  reason: ${r.decisionReason}`] : []),
  ].join('\n');
}
