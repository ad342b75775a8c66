import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { lookupTable } from '../platform/lookup-table';

/** 1 MiB: a tools/call of this service is a few hundred bytes; this leaves room for any client's _meta. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A refusal before the SDK sees the request: the HTTP status and the JSON-RPC error to answer with. */
export interface JsonRpcRefusal {
  status: number;
  code: number;
  message: string;
  id?: string | number | null;
  headers?: Record<string, string>;
}

export type BodyCheck = { ok: true; message: JSONRPCMessage } | { ok: false; refusal: JsonRpcRefusal };

/** The request envelopes of the methods this server answers, checked before the SDK parses them. */
const REQUEST_SCHEMAS = lookupTable<{
  safeParse(v: unknown): { success: true } | { success: false; error: z.core.$ZodError };
}>({
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
});

/**
 * The checks of a POST that must run before the body is read, in the SDK's order: Accept must
 * list both application/json and text/event-stream (406), Content-Type must be JSON (415).
 */
export function checkPostHeaders(req: IncomingMessage): JsonRpcRefusal | null {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return {
      status: 406,
      code: -32000,
      message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
    };
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return { status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' };
  }
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding.toLowerCase() !== 'identity') {
    return {
      status: 415,
      code: -32000,
      message: `Unsupported Media Type: Content-Encoding ${encoding.slice(0, 40)} is not accepted`,
    };
  }
  return null;
}

/**
 * Reads the raw body up to `limit` bytes (the app runs without a body parser, so nothing has
 * read it). A declared Content-Length over the limit is refused before reading anything;
 * otherwise reading stops as soon as the limit is passed.
 */
export async function readBody(
  req: IncomingMessage,
  limit = MAX_BODY_BYTES,
): Promise<{ tooLarge: false; body: Buffer } | { tooLarge: true }> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return { tooLarge: true };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return { tooLarge: true };
    chunks.push(chunk as Buffer);
  }
  return { tooLarge: false, body: Buffer.concat(chunks) };
}

/**
 * Turns raw bytes into one JSON-RPC message, or the error the protocol wants: -32700 for
 * anything that is not JSON (or not UTF-8), -32600 for a batch (removed from MCP in
 * 2025-06-18, although the SDK still accepts one) or for JSON that is not a JSON-RPC 2.0
 * message, -32602 for a known method whose params do not fit its schema.
 */
export function parseMessage(body: Buffer): BodyCheck {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return refuse(400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
  }
  if (Array.isArray(value)) {
    return refuse(
      400,
      ErrorCode.InvalidRequest,
      'Invalid Request: JSON-RPC batches are not supported (removed from MCP in protocol version 2025-06-18); send one message per POST',
    );
  }
  const message = JSONRPCMessageSchema.safeParse(value);
  if (!message.success) {
    return refuse(
      400,
      ErrorCode.InvalidRequest,
      'Invalid Request: the body is not a JSON-RPC 2.0 message',
      idOf(value),
    );
  }
  const data = message.data as JSONRPCMessage;
  if ('method' in data && 'id' in data) {
    // zod copies objects without a `__proto__` key: a tool's argument so named would be dropped, not refused.
    const hidden = protoKeyPath(value, 'params');
    if (hidden) {
      return refuse(
        200,
        ErrorCode.InvalidParams,
        `Invalid params for ${data.method}: ✖ unknown field __proto__\n  → at ${hidden}`,
        data.id,
      );
    }
    const schema = REQUEST_SCHEMAS[data.method];
    const checked = schema?.safeParse(data);
    if (checked && !checked.success) {
      // A JSON-RPC error response to a well-formed request: HTTP 200, as the SDK answers its own errors.
      return refuse(
        200,
        ErrorCode.InvalidParams,
        `Invalid params for ${data.method}: ${z.prettifyError(checked.error).slice(0, 500)}`,
        data.id,
      );
    }
  }
  return { ok: true, message: data };
}

export function writeJsonRpcError(res: ServerResponse, refusal: JsonRpcRefusal): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(refusal.status, { 'Content-Type': 'application/json', ...refusal.headers });
  res.end(
    JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message }, id: refusal.id ?? null }),
  );
}

function refuse(status: number, code: number, message: string, id?: string | number | null): BodyCheck {
  return { ok: false, refusal: { status, code, message, id } };
}

/** Where the first own `__proto__` key under `value[field]` is (`params.arguments`), if any. */
function protoKeyPath(value: unknown, field: string, depth = 0): string | undefined {
  const inner = (value as Record<string, unknown>)[field];
  if (inner === null || typeof inner !== 'object' || depth > 8) return undefined;
  if (Object.hasOwn(inner, '__proto__')) return field;
  for (const key of Object.keys(inner)) {
    const below = protoKeyPath(inner, key, depth + 1);
    if (below) return `${field}.${below}`;
  }
  return undefined;
}

function idOf(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}
