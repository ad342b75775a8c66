import * as ipaddr from 'ipaddr.js';
import type { Cidr } from '../../../platform/config/cidrs';

/**
 * Which addresses a webhook may reach. Only ordinary public unicast addresses are allowed:
 * ipaddr.js names every special range (loopback, private, linkLocal — 169.254.169.254
 * included —, carrierGradeNat, uniqueLocal, multicast, unspecified, broadcast, reserved —
 * which covers the documentation ranges —, 6to4, teredo, rfc6052 NAT64, …), and anything
 * but `unicast` is refused. IPv4-mapped IPv6 addresses are judged as the IPv4 address they
 * carry. WEBHOOK_TARGET_ALLOWLIST ranges are let through (tests, local development).
 */
/**
 * Ranges ipaddr.js calls `unicast` that are not: ::/8 is reserved by the IETF and holds the
 * deprecated IPv4-compatible addresses (`::127.0.0.1` is `::7f00:1`).
 */
const ALSO_REFUSED: Array<[ipaddr.IPv6, number, string]> = [
  [ipaddr.IPv6.parse('::'), 8, 'reserved (IPv4-compatible) address'],
];

export class AddressGuard {
  constructor(private readonly allowlist: readonly Cidr[] = []) {}

  /** Why the address may not be reached, or null when it may. */
  refusal(address: string): string | null {
    const literal = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
    // Zone ids (fe80::1%eth0) name an interface: never a public address.
    if (literal.includes('%')) return 'an IPv6 address with a zone id';
    if (!ipaddr.isValid(literal)) return 'not an IP address';
    const addr = ipaddr.process(literal);
    if (this.allowlist.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits))) return null;
    const range = addr.range();
    if (range !== 'unicast') return `${range} address`;
    const extra = addr.kind() === 'ipv6' ? ALSO_REFUSED.find(([r, bits]) => addr.match(r, bits)) : undefined;
    return extra ? extra[2] : null;
  }
}

/** True for a host that is an IP literal (WHATWG URL hostnames keep IPv6 in brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare));
}
