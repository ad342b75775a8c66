import * as ipaddr from 'ipaddr.js';

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Comma-separated CIDRs (a bare address is a /32 or /128). IPv4-mapped IPv6 ranges are
 * turned into their IPv4 range, so that one entry matches both spellings of an address.
 */
export function parseCidrs(value: string): Cidr[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      let range: Cidr;
      try {
        if (entry.includes('/')) range = ipaddr.parseCIDR(entry);
        else {
          const addr = ipaddr.parse(entry);
          range = [addr, addr.kind() === 'ipv4' ? 32 : 128];
        }
      } catch {
        throw new Error(`"${entry.slice(0, 60)}" is not an IP address or CIDR range`);
      }
      const [addr, bits] = range;
      if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
      }
      return range;
    });
}
