import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';

const requestOrigins = new AsyncLocalStorage<string>();

/** Runs `work` (and everything it starts) knowing the origin the request was made to. */
export function withRequestOrigin<T>(req: Request, work: () => T): T {
  // req.protocol and req.host follow X-Forwarded-* only from a trusted proxy (TRUST_PROXY).
  return requestOrigins.run(`${req.protocol}://${req.host}`, work);
}

/**
 * The service's public address, for the links it gives out (attribution, webhook payloads):
 * PUBLIC_BASE_URL when the operator set it; otherwise the origin the request at hand was made
 * to; otherwise, in background work, the address this process listens on, if it serves HTTP.
 * Without any of them, a link is its path alone.
 */
@Injectable()
export class PublicAddress {
  private listening?: string;

  constructor(private readonly config: AppConfig) {}

  /** Called once the HTTP server listens (main.ts). */
  listeningOn(port: number): void {
    this.listening = `http://localhost:${port}`;
  }

  base(): string | undefined {
    return this.config.publicBaseUrl ?? requestOrigins.getStore() ?? this.listening;
  }

  /** `path` on the public address: absolute when the address is known. */
  url(path: string): string {
    return `${this.base() ?? ''}${path}`;
  }
}
