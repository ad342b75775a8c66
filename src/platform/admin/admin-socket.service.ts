import { createServer, Server, Socket } from 'node:net';
import { chmodSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ADMIN_SOCKET } from '../database/data-dir-lock';
import { dataDirLockOf } from '../database/data-source-options';
import type { AdminCommand } from './admin-command';
import { AdminMessage, isAdminRequest, MAX_REQUEST_BYTES } from './admin-protocol';

export const ADMIN_COMMANDS = Symbol('ADMIN_COMMANDS');

/** Unix socket paths are limited to 108 bytes on Linux (104 on macOS). */
const MAX_SOCKET_PATH = 100;

/**
 * The admin channel of the embedded default: a Unix domain socket inside DATA_DIR, readable
 * and writable by the owner only (never a network port), on which the CLI commands run
 * "through the running service" — in this process, on its database session, so that no
 * second process ever opens the data directory. Its path is written into the lock file.
 */
@Injectable()
export class AdminSocketService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AdminSocketService.name);
  private server?: Server;
  private readonly running = new Set<Promise<unknown>>();
  private readonly path: string;

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
    @Inject(ADMIN_COMMANDS) private readonly commands: readonly AdminCommand[],
  ) {
    this.path = join(resolve(config.dataDir), ADMIN_SOCKET);
  }

  get socketPath(): string | undefined {
    return this.server ? this.path : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const lock = dataDirLockOf(this.dataSource.options);
    if (!lock) return;
    if (this.path.length > MAX_SOCKET_PATH) {
      this.logger.warn(
        `admin socket not opened: its path is over ${MAX_SOCKET_PATH} bytes (${this.path}); commands on this DATA_DIR will refuse while the service runs`,
      );
      return;
    }
    // We hold the lock: a socket file left here belongs to a process that is gone.
    removeFile(this.path);
    const server = createServer((socket) => this.serve(socket));
    // Created with no permission for group and others, then checked with chmod.
    const umask = process.umask(0o177);
    try {
      await new Promise<void>((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(this.path, () => resolveListen());
      });
    } finally {
      process.umask(umask);
    }
    chmodSync(this.path, 0o600);
    this.server = server;
    lock.announceSocket(this.path);
  }

  /** Before the database closes: take no new command, let running ones finish. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.server) return;
    dataDirLockOf(this.dataSource.options)?.announceSocket(null);
    this.server.close();
    removeFile(this.path);
    if (this.running.size > 0) {
      this.logger.warn(`waiting for ${this.running.size} admin command(s) to finish before closing the database`);
      await Promise.allSettled([...this.running]);
    }
  }

  private serve(socket: Socket): void {
    let buffer = '';
    let started = false;
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      if (started) return;
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) {
        if (buffer.length > MAX_REQUEST_BYTES) this.finish(socket, 2, 'request too large');
        return;
      }
      started = true;
      const task = this.execute(socket, buffer.slice(0, newline));
      this.running.add(task);
      void task.finally(() => this.running.delete(task));
    });
  }

  private async execute(socket: Socket, line: string): Promise<void> {
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch {
      return this.finish(socket, 2, 'the request is not JSON');
    }
    if (!isAdminRequest(request)) return this.finish(socket, 2, 'the request is not an admin request');
    const command = this.commands.find((c) => c.name === request.command);
    if (!command)
      return this.finish(
        socket,
        2,
        `unknown command "${request.command.slice(0, 60)}"; known: ${this.commands.map((c) => c.name).join(', ')}`,
      );
    // The operator may hang up (Ctrl-C): the command goes on; its output then goes to the log.
    const send = (message: AdminMessage) => {
      if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(message)}\n`);
      else if (message.type !== 'exit') this.logger.log(`${command.name}: ${message.line}`);
    };
    this.logger.log(`running ${command.name} for an operator (${request.argv.length} argument(s))`);
    let code: number;
    try {
      code = await command.run({
        argv: request.argv,
        cwd: request.cwd,
        config: this.config,
        dataSource: this.dataSource,
        get: (token) => this.moduleRef.get(token, { strict: false }),
        io: { out: (l) => send({ type: 'out', line: l }), err: (l) => send({ type: 'err', line: l }) },
      });
    } catch (err) {
      this.logger.error({ err }, `${command.name} failed`);
      send({ type: 'err', line: `${command.name}: ${(err as Error).message}` });
      code = 1;
    }
    this.logger.log(`${command.name} finished with exit code ${code}`);
    send({ type: 'exit', code });
    socket.end();
  }

  private finish(socket: Socket, code: number, message: string): void {
    socket.write(
      `${JSON.stringify({ type: 'err', line: `admin: ${message}` })}\n${JSON.stringify({ type: 'exit', code })}\n`,
    );
    socket.end();
  }
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* not there */
  }
}
