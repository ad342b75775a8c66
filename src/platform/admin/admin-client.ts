import { connect } from 'node:net';
import type { AdminIo } from './admin-command';
import type { AdminMessage, AdminRequest } from './admin-protocol';

/** The socket is there but nobody answers on it (the service stopped meanwhile). */
export class AdminSocketUnavailableError extends Error {}

/**
 * Sends one command to the running service over its admin socket and streams its output
 * lines to `io`; resolves with the command's exit code.
 */
export function sendAdminCommand(socketPath: string, request: AdminRequest, io: AdminIo): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let buffer = '';
    let connected = false;
    let exitCode: number | null = null;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        let message: AdminMessage;
        try {
          message = JSON.parse(line) as AdminMessage;
        } catch {
          continue;
        }
        if (message.type === 'exit') exitCode = message.code;
        else if (message.type === 'out') io.out(message.line);
        else io.err(message.line);
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected) reject(new AdminSocketUnavailableError(err.code ?? err.message));
    });
    socket.on('close', () => {
      if (!connected) return;
      if (exitCode === null) {
        io.err('the service closed the connection before the command finished (was it stopped?)');
        resolve(1);
      } else resolve(exitCode);
    });
  });
}
