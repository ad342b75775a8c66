import { servedOpenApiDocument } from '../support/openapi-document';
import { OpenApiResponseValidator, RecordedResponse } from '../support/openapi-validation';

jest.setTimeout(60_000);

const response = (over: Partial<RecordedResponse> & { json?: unknown }): RecordedResponse => ({
  method: 'GET',
  path: '/api/public/v1/problems/missing_parameter',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  headers: { 'x-ratelimit-remaining': '119', 'x-ratelimit-reset': '3600' },
  body: Buffer.from(
    JSON.stringify(
      over.json ?? {
        type: '/api/public/v1/problems/missing_parameter',
        code: 'missing_parameter',
        status: 400,
        title: 't',
        description: 'd',
      },
    ),
  ),
  ...over,
});

/** The checker every e2e app runs at close: it must refuse what the document does not describe. */
describe('responses checked against the served OpenAPI document', () => {
  let validator: OpenApiResponseValidator;
  beforeAll(async () => {
    validator = new OpenApiResponseValidator(await servedOpenApiDocument());
  });

  it('accepts a response that matches its operation', () => {
    expect(validator.check(response({}))).toEqual([]);
  });

  it('refuses a body against its schema, an undeclared status, an undeclared media type, a wrong-method answer that is no problem document', () => {
    expect(validator.check(response({ json: { code: 'nope', status: 'x' } }))[0]).toMatch(/must/);
    expect(validator.check(response({ status: 418 }))[0]).toMatch(/status 418 not declared/);
    expect(validator.check(response({ contentType: 'text/html' }))[0]).toMatch(/media type text\/html not declared/);
    expect(validator.check(response({ method: 'PUT', status: 405, json: { error: 'no' } }))[0]).toMatch(
      /expected application\/problem\+json/,
    );
    expect(
      validator
        .check(
          response({
            path: '/api/public/v1/status',
            json: { apiVersion: '1', generatedAt: 'x', probeIntervalSeconds: 1.5, registers: [] },
          }),
        )
        .join(),
    ).toMatch(/generatedAt|probeIntervalSeconds/);
  });
});
