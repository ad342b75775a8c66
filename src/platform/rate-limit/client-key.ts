import * as ipaddr from 'ipaddr.js';

/** One RATE_LIMIT_ALLOWLIST entry: a CIDR and its hourly limit (null = no limit). */
export interface RateLimitAllowEntry {
  range: [ipaddr.IPv4 | ipaddr.IPv6, number];
  limit: number | null;
  source: string;
}

/**
 * Parses `RATE_LIMIT_ALLOWLIST`: comma-separated `CIDR` (no limit) or `CIDR=limit`
 * entries, e.g. `10.0.0.0/8=10000, 2001:db8::/32, 192.0.2.7`. A bare address is a /32 or /128.
 */
export function parseAllowlist(value: string): RateLimitAllowEntry[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [cidr, limitText] = entry.split('=').map((s) => s.trim());
      let range: [ipaddr.IPv4 | ipaddr.IPv6, number];
      try {
        range = cidr.includes('/')
          ? ipaddr.parseCIDR(cidr)
          : (() => {
              const addr = ipaddr.parse(cidr);
              return [addr, addr.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
            })();
      } catch {
        throw new Error(`"${cidr}" is not an IP address or CIDR range`);
      }
      let limit: number | null = null;
      if (limitText !== undefined && limitText !== '' && limitText !== 'unlimited') {
        limit = Number(limitText);
        if (!Number.isInteger(limit) || limit <= 0) {
          throw new Error(`"${entry}": the limit after = must be a positive integer or "unlimited"`);
        }
      }
      return {
        range: [
          unmap(range[0]),
          range[0].kind() === 'ipv6' && unmap(range[0]).kind() === 'ipv4' ? range[1] - 96 : range[1],
        ],
        limit,
        source: entry,
      };
    });
}

function unmap(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

export interface ClientIdentity {
  /** Counting key: the IPv4 address, or the IPv6 /64 network. */
  key: string;
  /** Hourly limit for this client; null means unlimited. */
  limit: number | null;
}

/** Maps a request IP to the key it is counted under and the limit that applies to it. */
export function identifyClient(
  ip: string | undefined,
  defaultLimit: number,
  allowlist: RateLimitAllowEntry[],
): ClientIdentity {
  if (!ip || !ipaddr.isValid(ip)) return { key: `unknown:${ip ?? ''}`, limit: defaultLimit };
  const addr = unmap(ipaddr.parse(ip));
  const allowed = allowlist.find((e) => addr.kind() === e.range[0].kind() && addr.match(e.range));
  const limit = allowed ? allowed.limit : defaultLimit;
  if (addr.kind() === 'ipv4') return { key: addr.toString(), limit };
  // IPv6 clients usually hold a whole /64: count the network, not the address.
  const bytes = (addr as ipaddr.IPv6).toByteArray().slice(0, 8).concat(new Array(8).fill(0));
  return { key: `${ipaddr.fromByteArray(bytes).toString()}/64`, limit };
}
