import { createConnection, createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on loopback in front of a server (Postgres), that can stall: while paused it keeps
 * every connection open but passes no byte either way, as a network that stopped forwarding.
 */
export class TcpProxy {
  private server?: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private paused = false;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      for (const [from, to] of [pair, [upstream, client] as [Socket, Socket]]) {
        from.on('data', (chunk: Buffer) => {
          if (this.paused) return; // dropped: the stalled network never delivers it
          to.write(chunk);
        });
        from.on('error', () => to.destroy());
        from.on('close', () => {
          to.destroy();
          this.pairs.delete(pair);
        });
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server!.address() as AddressInfo).port;
  }

  /** Stops passing bytes (connections stay open, new ones are accepted and stall too). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  async stop(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
