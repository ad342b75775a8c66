import { DataSource } from 'typeorm';
import {
  DataDirLockedError,
  describeHolder,
  findLockHolder,
  LockHolder,
  SERVICE_COMMAND,
} from '../database/data-dir-lock';
import { buildDataSourceOptions } from '../database/data-source-options';
import { AdminSocketUnavailableError, sendAdminCommand } from './admin-client';
import type { AdminCommand, AdminIo, AdminSetup } from './admin-command';

/**
 * Runs an operator command where the database is:
 * - Postgres (DATABASE_URL): here, on a connection of its own;
 * - the embedded database, directory free: here, after taking the directory's lock;
 * - the embedded database, service running: in the service, over its admin socket, with the
 *   output streamed back;
 * - the embedded database, held by anything else: not at all — one sentence says who holds
 *   it and what to do.
 * Returns the exit code.
 */
export async function runAdminCommand(
  command: AdminCommand,
  argv: string[],
  setup: AdminSetup,
  io: AdminIo,
  cwd = process.cwd(),
): Promise<number> {
  const { config, schema, standalone } = setup;
  const embeddedOnDisk = !config.databaseUrl && config.dataDir !== 'memory://';
  if (embeddedOnDisk) {
    const holder = findLockHolder(config.dataDir);
    if (holder) {
      if (holder.socket) {
        try {
          io.err(`${describeHolder(holder, config.dataDir)}: running ${command.name} through it.`);
          return await sendAdminCommand(holder.socket, { command: command.name, argv, cwd }, io);
        } catch (err) {
          if (!(err instanceof AdminSocketUnavailableError)) throw err;
        }
      }
      io.err(`${command.name}: ${refusal(command.name, holder, config.dataDir)}`);
      return 1;
    }
  }
  let dataSource: DataSource;
  try {
    dataSource = new DataSource(buildDataSourceOptions(config, schema, { command: command.name }));
  } catch (err) {
    // Taken between the check above and now.
    if (!(err instanceof DataDirLockedError)) throw err;
    io.err(`${command.name}: ${refusal(command.name, err.holder, config.dataDir)}`);
    return 1;
  }
  await dataSource.initialize();
  try {
    return await command.run({
      argv,
      cwd,
      config,
      dataSource,
      get: <T>(token: unknown) => {
        if (!standalone.has(token))
          throw new Error(
            `${command.name} asked for a service of the running application, but it runs on its own here`,
          );
        return standalone.get(token) as T;
      },
      io,
    });
  } finally {
    await dataSource.destroy();
  }
}

/** The sentence an operator reads when the directory is held and the command cannot go through the holder. */
export function refusal(commandName: string, holder: LockHolder, dataDir: string): string {
  const who = describeHolder(holder, dataDir);
  if (holder.command === SERVICE_COMMAND) {
    return `${who} and does not take commands (it is starting or stopping, or its admin socket could not be opened). Only one process may open the embedded database: wait until it is up and run npm run ${commandName} again, or stop it (kill ${holder.pid}) and run the command alone.`;
  }
  return `${who}. Only one process may open the embedded database at a time: wait until it has finished, then run npm run ${commandName} again.`;
}
