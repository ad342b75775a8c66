import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { Customer, eventually, signUp } from '../support/event-side';
import { NO_ABG, NO_SESAM_AS } from '../support/fake-no-register';
import { FakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { MODE, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const LOOKUP_TOOLS = ['search_companies', 'get_company', 'list_registers', 'get_register_status', 'lookup_lei'];
const ACCOUNT_TOOLS = ['watch_company', 'list_watches', 'remove_watch', 'list_events'];
/** AF GRUPPEN ASA, of the bundled sample: a third company, past a quota of two. */
const NO_AF_GRUPPEN = '938702675';
const QUOTA = 2;
const ACCOUNT_LIMIT = 80;

type Problem = { code: string; status: number; detail: string; hint?: string } & Record<string, unknown>;

/**
 * The watch and event tools of the MCP server, through the official SDK client with the API
 * key in requestInit headers, against the real app: absent without a key, the same validation,
 * quota, limits and errors as /api/v1 with one, 401 for a wrong or revoked key.
 */
describe(`MCP watch and event tools with an API key (${MODE})`, () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  let receiver: WebhookReceiver;
  let customer: Customer;
  const clients: Client[] = [];
  const ajv = new AjvJsonSchemaValidator();

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    receiver = await new WebhookReceiver().start();
    app = await startTestApp({
      // Webhook receivers check the signature's timestamp against their own clock.
      realClock: true,
      env: {
        ...fakes.env,
        REGISTER_TIMEOUT_MS: '2000',
        WATCHES_PER_ACCOUNT: String(QUOTA),
        ACCOUNT_RATE_LIMIT_PER_HOUR: String(ACCOUNT_LIMIT),
        RATE_LIMIT_PER_HOUR: '10000',
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
      },
    });
    customer = await signUp(app.url);
    // The baseline is read at once only from a register its probes found live (the probe runs at boot).
    await eventually(
      () => fetch(`${app.url}/api/public/v1/registers?status=live`).then((r) => r.json() as Promise<any>),
      (b) => b.registers.some((r: { country: string }) => r.country === 'NO'),
    );
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app?.close();
    await receiver?.stop();
    await fakes?.stop();
  });

  async function connect(key?: string): Promise<Client> {
    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/api/public/v1/mcp`), { requestInit: { headers } }),
    );
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** The structured result, checked with ajv against the outputSchema as tools/list published it. */
  async function structured(client: Client, name: string, result: CallToolResult): Promise<any> {
    expect(result.isError).toBeFalsy();
    const tool = (await client.listTools()).tools.find((t) => t.name === name)!;
    const check = ajv.getValidator(tool.outputSchema as never)(result.structuredContent);
    expect(check.errorMessage).toBeUndefined();
    const texts = result.content.map((c) => (c as { text: string }).text);
    expect(texts).toHaveLength(2);
    expect(JSON.parse(texts[1])).toEqual(result.structuredContent);
    return result.structuredContent;
  }

  function problemOf(result: CallToolResult): Problem {
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const texts = result.content.map((c) => (c as { text: string }).text);
    const { error } = JSON.parse(texts[1]) as { error: Problem };
    expect(texts[0]).toContain(`Error ${error.code}: ${error.detail}`);
    return error;
  }

  /** The REST problem document minus what only HTTP has (the request's instance). */
  function restProblem(body: Record<string, unknown>): Record<string, unknown> {
    const { instance: _instance, ...rest } = body;
    return rest;
  }

  function withoutHint(problem: Problem): Record<string, unknown> {
    const { hint: _hint, ...rest } = problem;
    return rest;
  }

  it('without a key: the lookups only, exactly as before, and an account tool says to send the key', async () => {
    const client = await connect();
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(LOOKUP_TOOLS);
    expect(client.getInstructions()).toContain('Authorization: Bearer <api key>');
    const refused = problemOf(await call(client, 'watch_company', { country: 'NO', registrationNumber: NO_ABG }));
    expect(refused).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(refused.detail).toContain('send Authorization: Bearer <api key>');
    // Nothing was watched by anyone: the lookups still answer without a key.
    expect((await call(client, 'list_registers', {})).isError).toBeFalsy();
  });

  it('with a key: the lookups and the four account tools, with schemas and honest annotations', async () => {
    const client = await connect(customer.key);
    const tools = new Map<string, Tool>((await client.listTools()).tools.map((t) => [t.name, t]));
    expect([...tools.keys()]).toEqual([...LOOKUP_TOOLS, ...ACCOUNT_TOOLS]);
    for (const name of ACCOUNT_TOOLS) {
      expect(tools.get(name)!.inputSchema.type).toBe('object');
      // A misspelt argument is refused, not dropped (below): the schema says so to the model.
      expect(tools.get(name)!.inputSchema.additionalProperties).toBe(false);
      expect(tools.get(name)!.outputSchema?.type).toBe('object');
      expect(tools.get(name)!.description).toContain('Authorization: Bearer <api key>');
    }
    expect(tools.get('watch_company')!.inputSchema.required).toEqual(['country', 'registrationNumber']);
    expect(tools.get('remove_watch')!.inputSchema.required).toEqual(['watchId']);
    expect(tools.get('watch_company')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.get('remove_watch')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.get('list_events')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.get('search_companies')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(client.getInstructions()).toContain('watch_company');
  });

  it('watches a company of the bundled sample with a live baseline, lists it, and stops at the quota with REST’s error', async () => {
    const client = await connect(customer.key);
    const first = await structured(
      client,
      'watch_company',
      await call(client, 'watch_company', {
        country: 'no',
        registrationNumber: `${NO_ABG.slice(0, 3)} ${NO_ABG.slice(3)}`,
      }),
    );
    expect(first).toMatchObject({
      created: true,
      watch: {
        entityId: `ent_no_${NO_ABG}`,
        country: 'NO',
        registrationNumber: NO_ABG,
        companyName: 'ABG SUNDAL COLLIER ASA',
        baseline: { state: 'taken', sourceMode: 'live' },
        notifyNoChange: false,
      },
    });
    // The same watch as REST reads it.
    const rest = await customer.call('GET', `/api/v1/watches/${first.watch.id}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(first.watch);

    // Watching it again: the existing watch, as REST's 200.
    const again = await structured(
      client,
      'watch_company',
      await call(client, 'watch_company', { country: 'NO', registrationNumber: NO_ABG }),
    );
    expect(again).toEqual({ created: false, watch: first.watch });

    const second = await structured(
      client,
      'watch_company',
      await call(client, 'watch_company', { country: 'NO', registrationNumber: NO_SESAM_AS, notifyNoChange: true }),
    );
    // The fake register records no unit of SESAM AS: the watch waits for its baseline, as on REST.
    expect(second).toMatchObject({
      created: true,
      watch: { registrationNumber: NO_SESAM_AS, notifyNoChange: true, baseline: { state: 'pending' } },
    });

    const listed = await structured(client, 'list_watches', await call(client, 'list_watches', {}));
    expect(listed.data.map((w: { id: string }) => w.id)).toEqual([second.watch.id, first.watch.id]);
    expect(listed).toEqual((await customer.call('GET', '/api/v1/watches')).body);
    const page = await structured(client, 'list_watches', await call(client, 'list_watches', { limit: 1 }));
    expect(page.data).toHaveLength(1);
    const next = await structured(
      client,
      'list_watches',
      await call(client, 'list_watches', { limit: 1, cursor: page.nextCursor }),
    );
    expect(next).toEqual({ data: [listed.data[1]], nextCursor: null });

    // Past WATCHES_PER_ACCOUNT: the problem REST answers with 409, in the same words.
    const over = problemOf(await call(client, 'watch_company', { country: 'NO', registrationNumber: NO_AF_GRUPPEN }));
    expect(over).toMatchObject({ code: 'watch_quota_exceeded', status: 409, limit: QUOTA, used: QUOTA });
    expect(over.hint).toContain('remove_watch');
    const restOver = await customer.call('POST', '/api/v1/watches', {
      country: 'NO',
      registrationNumber: NO_AF_GRUPPEN,
    });
    expect(restOver.status).toBe(409);
    expect(withoutHint(over)).toEqual(restProblem(restOver.body));
  });

  it('refuses a country or a number as REST refuses it, in the same words', async () => {
    const client = await connect(customer.key);
    for (const input of [
      { country: 'NO', registrationNumber: '923609017' }, // wrong check digit
      { country: 'SE', registrationNumber: '5560360793' }, // not covered
      { country: 'NO', registrationNumber: 'ABC' },
      { country: 'Norway', registrationNumber: NO_ABG },
    ]) {
      const viaMcp = problemOf(await call(client, 'watch_company', input));
      const viaRest = await customer.call('POST', '/api/v1/watches', input);
      expect(viaRest.status).toBe(viaMcp.status);
      expect(withoutHint(viaMcp)).toEqual(restProblem(viaRest.body));
    }
    const badNumber = problemOf(
      await call(client, 'watch_company', { country: 'NO', registrationNumber: '923609017' }),
    );
    expect(badNumber).toMatchObject({
      code: 'invalid_body',
      status: 400,
      errors: [{ field: 'registrationNumber', code: 'invalid_registration_number' }],
    });
    expect(problemOf(await call(client, 'list_watches', { country: 'XX' }))).toMatchObject({
      code: 'country_not_covered',
    });
    const unknownKind = problemOf(await call(client, 'list_events', { event: 'company.nope' }));
    expect(unknownKind).toMatchObject({ code: 'invalid_parameter', errors: [{ field: 'event' }] });
    expect(unknownKind.detail).toContain('company.name_changed');
    expect(withoutHint(unknownKind)).toEqual(
      restProblem((await customer.call('GET', '/api/v1/events?event=company.nope')).body),
    );
    expect(problemOf(await call(client, 'list_events', { limit: 500 }))).toMatchObject({
      code: 'invalid_parameter',
      errors: [{ field: 'limit' }],
    });
    // A limit that is no number is told the limit's rule, as REST tells it (it said "must be a number, not text").
    const textLimit = await client.callTool({ name: 'list_events', arguments: { limit: 'five' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(textLimit).toMatchObject({ code: ErrorCode.InvalidParams });
    expect((textLimit as McpError).message).toMatch(/must be a whole number from 1 to 100\n.*limit/);
    // An argument the tool does not take is refused as REST refuses a query parameter it does not
    // know — here -32602, the protocol's answer to arguments that do not fit the input schema.
    const misspelt = await client.callTool({ name: 'list_events', arguments: { kind: 'company.name_changed' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(misspelt).toMatchObject({ code: ErrorCode.InvalidParams });
    expect((misspelt as McpError).message).toMatch(/unknown field kind\nIts arguments: event, entityId/);
    expect((await customer.call('GET', '/api/v1/events?kind=company.name_changed')).status).toBe(400);
  });

  it('reads the account’s recent events with their data, as delivered and as GET /api/v1/events answers them', async () => {
    const client = await connect(customer.key);
    const endpoint = await customer.call('POST', '/api/v1/webhook-endpoints', {
      url: `${receiver.url}/hooks`,
      events: ['company.name_changed', 'company.status_changed'],
    });
    expect(endpoint.status).toBe(201);
    receiver.secrets = [endpoint.body.secret];
    for (const event of ['company.name_changed', 'company.status_changed']) {
      const sent = await customer.call('POST', '/api/v1/simulator/events', {
        endpointId: endpoint.body.id,
        event,
        country: 'NO',
        registrationNumber: NO_ABG,
      });
      expect(sent.status).toBe(201);
    }
    await receiver.waitFor((r) => r.length >= 2);
    expect(receiver.requests.every((r) => r.verified === true)).toBe(true);

    const events = await structured(client, 'list_events', await call(client, 'list_events', {}));
    expect(events.data.map((e: { event: string }) => e.event)).toEqual([
      'company.status_changed',
      'company.name_changed',
    ]);
    // The payloads are the envelopes the receiver got and verified.
    expect(events.data.map((e: { payload: unknown }) => e.payload).reverse()).toEqual(
      receiver.requests.map((r) => JSON.parse(r.rawBody)),
    );
    expect(events.data[0]).toMatchObject({
      isTest: true,
      payload: {
        event: 'company.status_changed',
        is_test: true,
        data: {
          entity_id: `ent_no_${NO_ABG}`,
          company_name: 'ABG SUNDAL COLLIER ASA',
          registration_number: NO_ABG,
          change: { field: 'status' },
          provenance: { source_mode: 'live' },
        },
      },
    });
    expect(events).toEqual((await customer.call('GET', '/api/v1/events')).body);
    const summary = (await call(client, 'list_events', {})).content[0] as { text: string };
    expect(summary.text).toContain('company.status_changed (TEST) ABG SUNDAL COLLIER ASA');

    // Filters and pages as the REST query parameters.
    const one = await structured(
      client,
      'list_events',
      await call(client, 'list_events', { event: 'company.name_changed', entityId: `ent_no_${NO_ABG}`, isTest: true }),
    );
    expect(one.data.map((e: { id: string }) => e.id)).toEqual([events.data[1].id]);
    const none = await structured(client, 'list_events', await call(client, 'list_events', { isTest: false }));
    expect(none).toEqual({ data: [], nextCursor: null });
    const paged = await structured(client, 'list_events', await call(client, 'list_events', { limit: 1 }));
    expect(paged.data).toEqual([events.data[0]]);
    expect(typeof paged.nextCursor).toBe('string');
  });

  it('removes a watch, and a watch that is not there is REST’s 404', async () => {
    const client = await connect(customer.key);
    const before = (await customer.call('GET', '/api/v1/watches')).body.data as Array<{ id: string }>;
    const removed = await structured(
      client,
      'remove_watch',
      await call(client, 'remove_watch', { watchId: before[0].id }),
    );
    expect(removed).toEqual({ removed: true, watchId: before[0].id });
    const after = await structured(client, 'list_watches', await call(client, 'list_watches', {}));
    expect(after.data.map((w: { id: string }) => w.id)).toEqual([before[1].id]);
    expect((await customer.call('GET', `/api/v1/watches/${before[0].id}`)).status).toBe(404);

    const gone = problemOf(await call(client, 'remove_watch', { watchId: before[0].id }));
    const restGone = await customer.call('DELETE', `/api/v1/watches/${before[0].id}`);
    expect(restGone.status).toBe(404);
    expect(withoutHint(gone)).toEqual(restProblem(restGone.body));
    // Room again under the quota.
    expect(
      (await call(client, 'watch_company', { country: 'NO', registrationNumber: NO_AF_GRUPPEN })).isError,
    ).toBeFalsy();
  });

  it('answers a wrong or revoked key with 401, the problem document and the bearer challenge', async () => {
    for (const [key, detail] of [
      ['rl_' + 'x'.repeat(40), /not known|malformed/],
      ['not-a-key', /malformed/],
    ] as const) {
      const error = await connect(key).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StreamableHTTPError);
      expect((error as StreamableHTTPError).code).toBe(401);
      expect((error as Error).message).toMatch(detail);
    }
    // Revoked: the account's second key stops working at once, the first goes on.
    const created = await customer.call('POST', '/api/v1/account/keys', { name: 'agent' });
    expect(created.status).toBe(201);
    const agent = await connect(created.body.apiKey);
    expect((await call(agent, 'list_watches', {})).isError).toBeFalsy();
    expect((await customer.call('DELETE', `/api/v1/account/keys/${created.body.key.id}`)).status).toBe(200);
    const revoked = await call(agent, 'list_watches', {}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(revoked).toBeInstanceOf(StreamableHTTPError);
    expect((revoked as StreamableHTTPError).code).toBe(401);
    expect((revoked as Error).message).toContain('revoked');

    // On the wire: what REST answers, with WWW-Authenticate.
    const res = await fetch(`${app.url}/api/public/v1/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${created.body.apiKey}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="registry-lookup", error="invalid_token"/);
    expect(await res.json()).toMatchObject({ code: 'unauthorized', status: 401, detail: 'The API key was revoked.' });
  });

  it('counts account tool calls in the account’s hourly limit, shared with /api/v1', async () => {
    const other = await signUp(app.url);
    const client = await connect(other.key);
    // Lookups are not counted per account: only the public per-IP limit.
    for (let i = 0; i < 3; i++) expect((await call(client, 'list_registers', {})).isError).toBeFalsy();
    for (let i = 0; i < ACCOUNT_LIMIT - 1; i++) expect((await call(client, 'list_watches', {})).isError).toBeFalsy();
    const rest = await other.call('GET', '/api/v1/watches');
    expect(rest.status).toBe(200);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('0');
    const limited = problemOf(await call(client, 'list_events', {}));
    expect(limited).toMatchObject({ code: 'rate_limited', status: 429, limit: ACCOUNT_LIMIT });
    expect(limited.detail).toContain(`More than ${ACCOUNT_LIMIT} requests from this account in an hour`);
    expect((await other.call('GET', '/api/v1/watches')).status).toBe(429);
    // The lookups go on.
    expect((await call(client, 'list_registers', {})).isError).toBeFalsy();
  });
});
