import { parseCidrs } from '../../../platform/config/cidrs';
import { ApiError } from '../../../platform/errors/api-error';
import { AppConfig } from '../../../platform/config/app-config';
import { AddressGuard } from './address-guard';
import { DnsResolver, ResolvedAddress } from './dns-resolver';
import { TargetGuard } from './target-guard.service';
import { parseTargetUrl, TargetUrlError } from './target-url';

/** What saving an endpoint with this URL does, before any name resolution. */
function verdict(raw: string, guard = new AddressGuard()): 'allowed' | 'refused' | 'invalid' {
  try {
    const target = parseTargetUrl(raw);
    if (!target.isIp) return 'allowed';
    return guard.refusal(target.host) ? 'refused' : 'allowed';
  } catch (err) {
    if (!(err instanceof TargetUrlError)) throw err;
    return err.kind === 'invalid' ? 'invalid' : 'refused';
  }
}

describe('webhook targets: the address guard against every spelling', () => {
  const refused: Array<[string, string]> = [
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.1/', 'short IPv4'],
    ['http://2130706433/', 'decimal IPv4'],
    ['http://017700000001/', 'octal IPv4 as one number'],
    ['http://0x7f000001/', 'hex IPv4 as one number'],
    ['http://0x7f.1/', 'hex short'],
    ['http://0177.0.0.1/', 'octal dotted'],
    ['http://127.0.0.1./', 'trailing dot'],
    ['http://127.0.0.1%2e/', 'percent-encoded trailing dot'],
    ['http://%31%32%37.0.0.1/', 'percent-encoded digits'],
    ['http://①②⑦.0.0.1/', 'circled digits (IDNA-mapped)'],
    ['http://127。0。0。1/', 'ideographic full stops'],
    ['http://127.0.0.1:8080/hook', 'loopback with a port'],
    ['http://[::1]/', 'IPv6 loopback'],
    ['http://[0:0:0:0:0:0:0:1]/', 'IPv6 loopback in full'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['http://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex'],
    ['http://[0:0:0:0:0:ffff:169.254.169.254]/', 'IPv4-mapped metadata address'],
    ['http://[::127.0.0.1]/', 'IPv4-compatible loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://[fe80::1]/', 'IPv6 link-local'],
    ['http://10.0.0.1/', 'private 10/8'],
    ['http://0x0a.0.0.1/', 'private, hex first octet'],
    ['http://172.16.0.1/', 'private 172.16/12'],
    ['http://172.31.255.255/', 'private 172.16/12, last'],
    ['http://192.168.1.1/', 'private 192.168/16'],
    ['https://[::ffff:10.0.0.1]:443/', 'IPv4-mapped private'],
    ['http://100.64.0.1/', 'CGNAT'],
    ['http://[fc00::1]/', 'unique local'],
    ['http://[fd12:3456::1]/', 'unique local fd'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'IPv6 multicast'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0/', 'unspecified, short'],
    ['http://[::]/', 'IPv6 unspecified'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://192.0.2.1/', 'documentation TEST-NET-1'],
    ['http://198.51.100.7/', 'documentation TEST-NET-2'],
    ['http://203.0.113.9/', 'documentation TEST-NET-3'],
    ['http://[2001:db8::1]/', 'IPv6 documentation'],
    ['http://240.0.0.1/', 'reserved 240/4'],
    ['http://198.18.0.1/', 'benchmarking'],
    ['http://192.0.0.8/', 'IETF protocol assignments'],
    ['http://[64:ff9b::7f00:1]/', 'NAT64 of 127.0.0.1'],
    ['http://[2002:7f00:1::]/', '6to4 of 127.0.0.1'],
    ['http://user:pass@example.com/', 'credentials'],
    ['http://example.com@127.0.0.1/', 'userinfo trick'],
    ['http://@example.com/', 'empty userinfo'],
    ['ftp://example.com/', 'ftp'],
    ['file:///etc/passwd', 'file'],
    ['gopher://example.com:70/', 'gopher'],
    ['javascript:alert(1)', 'javascript'],
  ];
  it.each(refused)('refuses %s (%s)', (url) => {
    expect(verdict(url)).toBe('refused');
  });

  const allowed: Array<[string, string]> = [
    ['https://8.8.8.8/hook', 'public IPv4'],
    ['http://93.184.215.14:8080/x?y=1', 'public IPv4 with port and query'],
    ['http://1.1/', 'short spelling of a public address'],
    ['https://[2606:4700:4700::1111]/', 'public IPv6'],
    ['http://[::ffff:8.8.8.8]/', 'IPv4-mapped public address'],
    ['https://example.com/webhooks', 'a name (its addresses are checked apart)'],
    ['HTTPS://EXAMPLE.COM./hooks', 'upper case and a trailing dot'],
    ['https://hooks.example.com:8443/a/b', 'any port'],
  ];
  it.each(allowed)('allows %s (%s)', (url) => {
    expect(verdict(url)).toBe('allowed');
  });

  const invalid = [
    'not a url',
    'http://',
    '//example.com/x',
    'http://exa mple.com/',
    'http://example.com/\n',
    'http:\\\\127.0.0.1\\',
    `https://example.com/${'a'.repeat(2100)}`,
  ];
  it.each(invalid)('calls %j malformed (400), not merely refused', (url) => {
    expect(verdict(url.slice(0, 3000))).toBe('invalid');
  });

  it.each([
    ['https://example.com:99999/hook', 'the port 99999 is out of range: a port is 1 to 65535'],
    ['https://[2001:db8::1]:70000/', 'the port 70000 is out of range: a port is 1 to 65535'],
    ['https://example.com:0/hook', 'the port 0 is out of range: a port is 1 to 65535'],
    ['https://example.com:8x/hook', 'not an absolute URL (e.g. https://example.com/webhooks)'],
  ])('says what is wrong with the port of %s', (url, message) => {
    expect(() => parseTargetUrl(url)).toThrow(message);
  });

  it('lets WEBHOOK_TARGET_ALLOWLIST ranges through, in both spellings, and nothing else', () => {
    const guard = new AddressGuard(parseCidrs('127.0.0.0/8, ::ffff:192.168.7.0/120'));
    expect(verdict('http://127.0.0.1:9/', guard)).toBe('allowed');
    expect(verdict('http://[::ffff:127.0.0.2]/', guard)).toBe('allowed');
    expect(verdict('http://192.168.7.9/', guard)).toBe('allowed');
    expect(verdict('http://[::1]/', guard)).toBe('refused');
    expect(verdict('http://10.0.0.1/', guard)).toBe('refused');
    expect(verdict('http://192.168.8.1/', guard)).toBe('refused');
  });

  it('refuses anything that is not an address, and zone ids', () => {
    const guard = new AddressGuard();
    expect(guard.refusal('example.com')).toBe('not an IP address');
    expect(guard.refusal('fe80::1%eth0')).toMatch(/zone/);
    expect(guard.refusal('8.8.8.8')).toBeNull();
  });

  it.each([
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['fd00::1', 'a unique local address'],
    ['64:ff9b::1.2.3.4', 'a NAT64 address (RFC 6052)'],
    ['::ffff:0:1.2.3.4', 'an IPv4-translated address (RFC 6145)'],
    ['2001::1', 'a Teredo tunnel address'],
    ['224.0.0.1', 'a multicast address'],
  ])('names %s as a sentence would: %s', (address, phrase) => {
    expect(new AddressGuard().refusal(address)).toBe(phrase);
  });
});

describe('webhook targets: names resolving to refused addresses (when the endpoint is saved)', () => {
  const records: Record<string, ResolvedAddress[] | Error> = {
    'internal.example': [{ address: '10.1.2.3', family: 4 }],
    'metadata.example': [{ address: '169.254.169.254', family: 4 }],
    'mixed.example': [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
    'v6.example': [{ address: 'fd00::1', family: 6 }],
    'mapped.example': [{ address: '::ffff:192.168.0.1', family: 6 }],
    'public.example': [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ],
    'nxdomain.example': Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
  };
  class FakeDns extends DnsResolver {
    override async resolve(host: string): Promise<ResolvedAddress[]> {
      const r = records[host];
      if (!r) throw new Error(`unexpected lookup of ${host}`);
      if (r instanceof Error) throw r;
      return r;
    }
  }
  const guard = new TargetGuard(AppConfig.fromEnv({}), new FakeDns());

  async function outcome(url: string): Promise<string> {
    try {
      return await guard.checkForSave(url);
    } catch (err) {
      return `${(err as ApiError).code}: ${(err as ApiError).detail}`;
    }
  }

  it.each([
    ['http://internal.example/', /target_not_allowed: url: internal.example resolves to 10.1.2.3, a private address/],
    ['http://metadata.example/', /target_not_allowed: .*169.254.169.254, a link-local address/],
    ['https://mixed.example/', /target_not_allowed: .*127.0.0.1, a loopback address/],
    ['https://v6.example/', /target_not_allowed: .*fd00::1, a unique local address/],
    ['https://mapped.example./x', /target_not_allowed: .*::ffff:192.168.0.1, a private address/],
  ])('refuses %s', async (url, expected) => {
    expect(await outcome(url)).toMatch(expected);
  });

  it('accepts a name whose every address is public, and one that does not resolve yet (checked again at every attempt)', async () => {
    expect(await outcome('https://public.example/hooks')).toBe('https://public.example/hooks');
    expect(await outcome('https://nxdomain.example/hooks')).toBe('https://nxdomain.example/hooks');
  });

  it('answers 400 for a malformed URL and 422 for a refused one, naming the field', async () => {
    await expect(guard.checkForSave('nope')).rejects.toMatchObject({
      code: 'invalid_body',
      extras: { errors: [{ field: 'url', code: 'invalid_url' }] },
    });
    await expect(guard.checkForSave('http://2130706433/')).rejects.toMatchObject({
      code: 'target_not_allowed',
      status: 422,
      extras: { errors: [{ field: 'url', code: 'target_not_allowed', message: '127.0.0.1 is a loopback address' }] },
    });
  });
});
