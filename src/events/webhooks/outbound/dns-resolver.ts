import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Host name → every address it resolves to (the system resolver, as a connection would use).
 * Injected so that tests can make a name resolve where they need it (DNS rebinding).
 */
@Injectable()
export class DnsResolver {
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    return lookup(hostname, { all: true, verbatim: true });
  }
}
