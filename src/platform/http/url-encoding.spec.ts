import { undecodableUrl } from './url-encoding';

describe('undecodableUrl', () => {
  it.each([
    '/api/public/v1/search?q=sesam&country=NO',
    '/api/public/v1/search?q=caf%C3%A9+de+paris&country=FR',
    '/api/public/v1/search?q=100%25&country=NO',
    '/api/public/v1/companies/NO/913757424',
    '/api/public/v1/registers',
    '/api/public/v1/registers?',
    '/api/public/v1/search?q=&country=&&flag',
    '/api/public/v1/search?q=a=b&country=NO',
  ])('accepts %s', (url) => {
    expect(undecodableUrl(url)).toBeNull();
  });

  it.each([
    ['/api/public/v1/search?q=100%&country=NO', 'q', '100%'],
    ['/api/public/v1/search?q=sesam%ZZ&country=NO', 'q', 'sesam%ZZ'],
    // An overlong "/" and a lone surrogate: bytes that are not UTF-8.
    ['/api/public/v1/search?q=%C0%AFsesam&country=NO', 'q', '%C0%AFsesam'],
    ['/api/public/v1/search?q=%ED%A0%80abc&country=NO', 'q', '%ED%A0%80abc'],
    ['/api/public/v1/search?q=sesam&country=N%D8', 'country', 'N%D8'],
    ['/api/v1/events?limit=1&since=%E2%82', 'since', '%E2%82'],
    ['/api/public/v1/registers?%FF=1', '%FF', '%FF'],
  ])('names the parameter of %s', (url, parameter, raw) => {
    expect(undecodableUrl(url)).toEqual({ where: { parameter }, raw });
  });

  it('names the path segment that does not decode', () => {
    expect(undecodableUrl('/api/public/v1/companies/NO/%E0%A4%A?q=%FF')).toEqual({
      where: { path: true },
      raw: '%E0%A4%A',
    });
  });

  it('shortens what it shows', () => {
    const long = `${'x'.repeat(500)}%`;
    expect(undecodableUrl(`/api/public/v1/search?q=${long}`)?.raw).toBe(`${'x'.repeat(60)}…`);
  });
});
