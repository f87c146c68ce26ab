import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxError } from './errors';

// Small request/response helpers over node:http: bounded JSON bodies and JSON responses.

export interface JsonReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Reads a JSON body of at most `maxBytes`: 413 when larger, 415 for a non-JSON content type, 400 when unparseable.
 * An oversize body is still drained (up to a hard cap) before the error is answered, so the client reads the 413
 * instead of a connection reset while it is still uploading.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const declared = Number(req.headers['content-length'] ?? NaN);
  const bytes = await collect(req, maxBytes, Number.isFinite(declared) ? declared : undefined);
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    throw new SandboxError(415, 'unsupported_content_type', `request bodies must be application/json, not ${type}`);
  }
  if (bytes === undefined) {
    throw new SandboxError(413, 'payload_too_large', `request body exceeds the limit of ${maxBytes} bytes`, { limit: maxBytes });
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') throw new SandboxError(400, 'invalid_json', 'the request body is empty; send a JSON object');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SandboxError(400, 'invalid_json', `the request body is not valid JSON (${(error as Error).message})`);
  }
}

const DRAIN_CAP_FACTOR = 4;

/** Resolves to the body, or undefined when it exceeds maxBytes (after draining it, or at once beyond the cap). */
function collect(req: IncomingMessage, maxBytes: number, declared: number | undefined): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (declared !== undefined && declared > maxBytes * DRAIN_CAP_FACTOR) {
      req.resume();
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let tooLarge = declared !== undefined && declared > maxBytes;
    req.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      if (total > maxBytes * DRAIN_CAP_FACTOR) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
      }
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, reply: JsonReply, malformed = false): void {
  let text = JSON.stringify(reply.body);
  // Injected fault: the body is cut off mid-document, the way a broken proxy or a crash mid-write would leave it.
  if (malformed) text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...reply.headers,
  });
  res.end(text);
}

export function errorReply(error: SandboxError): JsonReply {
  return { status: error.status, body: error.body(), headers: error.headers };
}
