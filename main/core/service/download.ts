import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ServiceError } from './errors';
import { discardBody } from './node-transport';

/** An error answer's body is read up to this much: plenty for a message, and a bound on what a broken server can send. */
export const ERROR_BODY_MAX_BYTES = 32 * 1024;

/**
 * A download's error answer (non-2xx) read as text, whole within `deadlineMs` of its headers and at most `maxBytes`.
 * Stream mode's timer stops at the headers, so without this a body that stalls or never ends would hang the download
 * (and the batch) for good. A body that does not arrive whole gives `whole: false` and has its connection destroyed.
 */
export function readErrorText(body: Readable, deadlineMs: number, maxBytes = ERROR_BODY_MAX_BYTES): Promise<{ text: string; whole: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      body.off('data', onData).off('end', onEnd).off('close', onClose);
      if (!whole) body.destroy();
      resolve({ text: new TextDecoder().decode(Buffer.concat(chunks)), whole });
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > maxBytes) return finish(false);
      chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => finish(true);
    // Destroyed (the caller aborted) or broken off: whatever arrived is not the whole answer.
    const onClose = () => finish(false);
    const timer = setTimeout(() => finish(false), deadlineMs);
    // Kept after finishing: a destroyed body may still report its error.
    body.on('error', () => undefined);
    body.on('data', onData).once('end', onEnd).once('close', onClose);
    if (body.destroyed) finish(false);
    else if (body.readableEnded) finish(true);
  });
}

/** Statuses whose Response cannot carry a body. */
const NULL_BODY = new Set([204, 205]);

function headerPairs(headers: IncomingHttpHeaders): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) pairs.push([name, one]);
  }
  return pairs;
}

/**
 * A downloaded body as a web Response whose stream fails with a timeout when the transfer stalls longer than `idleMs`
 * between chunks, and with a network error when the connection breaks mid-body, instead of hanging or leaking Node's
 * wording. `onEnd` runs once when the body is finished with, however it ends.
 */
export function withIdleTimeout(
  body: Readable,
  init: { status: number; headers: IncomingHttpHeaders },
  idleMs: number,
  label: string,
  onEnd: () => void = () => undefined,
): Response {
  const headers = headerPairs(init.headers);
  if (NULL_BODY.has(init.status)) {
    void discardBody(body);
    onEnd();
    return new Response(null, { status: init.status, headers });
  }
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      timer = setTimeout(() => {
        finished = true;
        onEnd();
        controller.error(new ServiceError('timeout', `The download stalled (${label}: no data for ${Math.round(idleMs / 1000)} s).`, { endpoint: label }));
        body.destroy();
      }, idleMs);
      try {
        const { done, value } = await chunks.next();
        clearTimeout(timer);
        if (finished) return;
        if (done) {
          finished = true;
          onEnd();
          controller.close();
        } else {
          controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        }
      } catch (error) {
        clearTimeout(timer);
        if (finished) return;
        finished = true;
        onEnd();
        const cancelled = (error as { name?: string } | null)?.name === 'AbortError';
        controller.error(
          cancelled
            ? new ServiceError('cancelled', 'The download was cancelled.', { endpoint: label })
            : new ServiceError('network', `The download broke off (${label}).`, { endpoint: label }, { cause: error }),
        );
      }
    },
    cancel() {
      clearTimeout(timer);
      finished = true;
      onEnd();
      body.destroy();
    },
  });
  return new Response(stream, { status: init.status, headers });
}
