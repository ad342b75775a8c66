import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * `describe` when Debian's Chromium is there (or REQUIRE_BROWSER is set, so that a missing
 * browser fails in CI), `describe.skip` with one line saying why otherwise.
 */
export function describeWithBrowser(name: string): jest.Describe {
  const available = existsSync(CHROMIUM);
  if (!available && !process.env.REQUIRE_BROWSER) {
    console.log(
      `${name}: skipped, no Chromium at ${CHROMIUM} (set CHROMIUM_PATH, or REQUIRE_BROWSER=1 to fail instead)`,
    );
    return describe.skip;
  }
  return describe;
}

/** Headless Chromium as the project runs it: no sandbox (root), no GPU, no background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Another website: serves `html` at http://localhost:<its own port>/ — a different origin from
 * the app's http://127.0.0.1:<port> on both host and port.
 */
export async function startOtherOrigin(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const site: Server = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(site.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
