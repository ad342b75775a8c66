/**
 * The receiver a customer needs, as plain Node (node:http, no framework): the raw body,
 * `new Webhook(secret).verify(rawBody, headers)`, 2xx when it verifies. The secret comes
 * from the environment, never pasted into code: the page does not hold it after showing it.
 */
export function nodeReceiverSnippet(endpointUrl: string | null): string {
  const url = parse(endpointUrl);
  const path = url ? url.pathname + url.search : '/webhooks';
  const port = url?.port || '8080'; // a public URL without a port is usually a proxy in front of this one
  return `// receiver.js — npm install standardwebhooks
// WEBHOOK_SECRET=whsec_… node receiver.js
const http = require('node:http');
const { Webhook } = require('standardwebhooks');

const webhook = new Webhook(process.env.WEBHOOK_SECRET);

http
  .createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== ${JSON.stringify(path)}) return res.writeHead(404).end();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      // Verify the raw body, byte for byte as sent: never a re-serialised copy.
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let event;
      try {
        // Checks webhook-signature against webhook-id, webhook-timestamp and the body,
        // and refuses a timestamp more than 5 minutes away (a replay).
        event = webhook.verify(rawBody, req.headers);
      } catch (err) {
        return res.writeHead(400).end('invalid signature');
      }
      // webhook-id is the same on every retry: use it to skip duplicates.
      console.log(req.headers['webhook-id'], event.event, event.is_test ? '(test)' : '', event.data);
      res.writeHead(204).end();
    });
  })
  .listen(Number(process.env.PORT) || ${port});
`;
}

function parse(url: string | null): URL | null {
  if (!url) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
