import { writeFileSync } from 'node:fs';
import { startTestApp } from './test-app';

/** Boots the app once and returns the OpenAPI document it serves. */
export async function servedOpenApiDocument(): Promise<Record<string, any>> {
  const app = await startTestApp({ mode: 'embedded' });
  try {
    return (await (await fetch(`${app.url}/api/public/v1/openapi.json`)).json()) as Record<string, any>;
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  void servedOpenApiDocument().then((doc) => writeFileSync(process.argv[2], JSON.stringify(doc, null, 2)));
}
