import type { OpenAPIObject } from '@nestjs/swagger';
import { RATE_LIMIT_HEADERS } from './api-public-errors.decorator';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as untyped JSON
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * What the generator leaves out and strict tools (Redocly's recommended rules, Spectral's
 * spectral:oas, openapi-typescript) want, applied to every operation of the document, today's
 * and those added later:
 * - an explicit `security` on every operation: `[]` (open) unless the operation declares a scheme;
 * - the X-RateLimit-* headers on every response of /api/public/v1 (they are on every one);
 * - a nullable `$ref` / composition (OpenAPI 3.0 ignores `nullable` without a `type`): a `oneOf`
 *   of the schema and null;
 * - every tag an operation uses, declared at the root.
 */
export function finalizeOpenApiDocument(document: OpenAPIObject): OpenAPIObject {
  const doc = document as unknown as Json;
  const tags = new Set<string>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      op.security ??= [];
      for (const t of op.tags ?? []) tags.add(t);
      if (!path.startsWith('/api/public/v1')) continue;
      for (const response of Object.values<Json>(op.responses ?? {})) {
        if (response.$ref) continue;
        response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
      }
    }
  }
  const known = new Set((doc.tags ?? []).map((t: Json) => t.name));
  doc.tags = [
    ...(doc.tags ?? []),
    ...[...tags]
      .filter((t) => !known.has(t))
      .sort()
      .map((name) => ({ name })),
  ];
  walkSchemas(doc, fixNullable);
  return document;
}

const NULL_SCHEMA = { type: 'string', nullable: true, enum: [null] };

function fixNullable(schema: Json): void {
  if (schema.nullable !== true) return;
  // `{ type: object, nullable, allOf: [$ref] }` (what the generator writes for a nullable DTO) refuses null: allOf still applies.
  const composedObject = schema.type === 'object' && !schema.properties && (Array.isArray(schema.allOf) || schema.$ref);
  if (schema.type !== undefined && !composedObject) return;
  delete schema.nullable;
  delete schema.type;
  if (Array.isArray(schema.oneOf)) schema.oneOf = [...schema.oneOf, NULL_SCHEMA];
  else if (Array.isArray(schema.anyOf)) schema.anyOf = [...schema.anyOf, NULL_SCHEMA];
  else if (Array.isArray(schema.allOf) || schema.$ref) {
    const inner = schema.$ref
      ? { $ref: schema.$ref }
      : schema.allOf.length === 1
        ? schema.allOf[0]
        : { allOf: schema.allOf };
    delete schema.allOf;
    delete schema.$ref;
    schema.oneOf = [inner, NULL_SCHEMA];
  }
}

/** Calls `fix` on every schema object of the document (components, parameters, bodies, responses). */
function walkSchemas(node: unknown, fix: (schema: Json) => void, isSchema = false): void {
  if (Array.isArray(node)) {
    for (const n of node) walkSchemas(n, fix, isSchema);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Json;
  if (isSchema) fix(obj);
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'example' || key === 'examples' || key === 'enum') continue;
    const childIsSchema =
      key === 'schema' ||
      (isSchema && ['items', 'not', 'additionalProperties'].includes(key)) ||
      (isSchema && ['allOf', 'oneOf', 'anyOf'].includes(key));
    if (isSchema && key === 'properties') {
      for (const prop of Object.values(value as Json)) walkSchemas(prop, fix, true);
    } else if (key === 'schemas' && obj === (obj as Json)) {
      for (const s of Object.values(value as Json)) walkSchemas(s, fix, true);
    } else walkSchemas(value, fix, childIsSchema);
  }
}
