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
  [ipaddr.IPv6.parse('::'), 8, 'a reserved (IPv4-compatible) address'],
];

/** ipaddr.js's range names as a sentence says them, with their article. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  reserved: 'a reserved address',
  uniqueLocal: 'a unique local address',
  ipv4Mapped: 'an IPv4-mapped address',
  discard: 'a discard-only address',
  rfc6145: 'an IPv4-translated address (RFC 6145)',
  rfc6052: 'a NAT64 address (RFC 6052)',
  '6to4': 'a 6to4 relay address',
  teredo: 'a Teredo tunnel address',
  benchmarking: 'a benchmarking address',
  amt: 'an AMT relay address',
  as112: 'an AS112 address',
  as112v6: 'an AS112 address',
  deprecated: 'a deprecated address',
  orchid2: 'an ORCHIDv2 address',
  droneRemoteIdProtocolEntityTags: 'a drone remote ID address',
};

export class AddressGuard {
  constructor(private readonly allowlist: readonly Cidr[] = []) {}

  /** Why the address may not be reached, as a noun phrase with its article ("a loopback address"), or null when it may. */
  refusal(address: string): string | null {
    const literal = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
    // Zone ids (fe80::1%eth0) name an interface: never a public address.
    if (literal.includes('%')) return 'an IPv6 address with a zone id';
    if (!ipaddr.isValid(literal)) return 'not an IP address';
    const addr = ipaddr.process(literal);
    if (this.allowlist.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits))) return null;
    const range = addr.range();
    if (range !== 'unicast') return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
    const extra = addr.kind() === 'ipv6' ? ALSO_REFUSED.find(([r, bits]) => addr.match(r, bits)) : undefined;
    return extra ? extra[2] : null;
  }
}

/** True for a host that is an IP literal (WHATWG URL hostnames keep IPv6 in brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare));
}
