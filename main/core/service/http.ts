import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { USER_AGENT } from '../../../shared/app-info';
import type { Logger } from '../log';
import { ServiceError } from './errors';
import { AnswerTooLarge, discardBody, readText, WireFailure, type HeaderReader, type Transport } from './node-transport';
import { cancelledError } from './retry';

/** TLS failures: never sent (the handshake did not finish), and another try will not help (a certificate does not fix itself). */
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|^EPROTO$/;

export type LostKind = 'not_sent' | 'lost' | 'timeout';

/** A request that got no HTTP answer. `not_sent`: provably never reached the service; `lost`/`timeout`: may have. */
export class TransportFailure extends Error {
  constructor(
    readonly kind: LostKind,
    readonly retryable: boolean,
    readonly error: ServiceError,
  ) {
    super(error.message);
  }
}

export interface Exchange {
  status: number;
  headers: HeaderReader;
  /** The body text (absent when the caller asked for the stream). */
  text?: string;
  /** Stream mode only: the body, and every header as Node parsed it. */
  body?: Readable;
  rawHeaders?: IncomingHttpHeaders;
  /** Stream mode only: unlinks the caller's AbortSignal once the body is finished with. */
  release?: () => void;
}

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  /** Whether to send the Authorization header (only to the service's own origin). */
  auth: boolean;
  accept?: string;
  signal?: AbortSignal;
  timeoutMs: number;
  /** Keep the body as a stream (downloads); the timeout then covers only the wait for the headers. */
  stream?: boolean;
  label: string;
}

export interface HttpDeps {
  transport: Transport;
  apiKey: string;
  log: Logger;
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const nested = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(nested)) {
      const inner = nested.map(causeCode).find((c) => c !== undefined);
      if (inner) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the service';
  }
}

function notSentWhat(code: string | undefined, host: string): string {
  if (code === 'ECONNREFUSED') return `connection refused by ${host}`;
  if (code === 'ENOTFOUND' || code?.startsWith('EAI_')) return `cannot resolve ${host}`;
  if (code === 'CONNECT_TIMEOUT') return `no connection to ${host} in time`;
  return `${code ?? 'no connection'} for ${host}`;
}

/**
 * Whether the request can have reached the service is the transport's verdict (WireFailure.notSent: the connection
 * was never established). Anything else — a body that broke off, an error the transport did not see — may have.
 */
function classify(error: unknown, req: ExchangeRequest, timedOut: boolean, cancelled: boolean): TransportFailure {
  // Aborted by the caller mid-flight: for a GET simply cancelled; for execute the request may already have arrived.
  if (cancelled) return new TransportFailure('lost', false, cancelledError());
  const host = hostOf(req.url);
  // The answer arrived (so an execute may have been accepted) but is too large to be one: not worth asking again.
  if (error instanceof AnswerTooLarge) {
    const message = `The service's answer was too large (${req.label}: more than ${error.maxBytes / 2 ** 20} MB from ${host}).`;
    return new TransportFailure('lost', false, new ServiceError('server', message, { endpoint: req.label }));
  }
  if (timedOut) {
    const message = `The service did not answer in time (${req.label}: no answer from ${host} within ${Math.round(req.timeoutMs / 100) / 10} s).`;
    return new TransportFailure('timeout', true, new ServiceError('timeout', message, { endpoint: req.label }));
  }
  const code = error instanceof WireFailure ? error.code : causeCode(error);
  const notSent = error instanceof WireFailure && error.notSent;
  if (notSent && code && TLS_CODE.test(code)) {
    const message = `The service could not be reached securely (${req.label}: TLS problem ${code} with ${host}).`;
    return new TransportFailure('not_sent', false, new ServiceError('network', message, { endpoint: req.label }));
  }
  const what = notSent ? notSentWhat(code, host) : `the connection to ${host} broke${code ? ` (${code})` : ''}`;
  const message = `The service could not be reached (${req.label}: ${what}).`;
  return new TransportFailure(notSent ? 'not_sent' : 'lost', true, new ServiceError('network', message, { endpoint: req.label }));
}

/**
 * One HTTP exchange with a per-request timeout and the caller's AbortSignal. Redirects are followed by hand so the
 * Authorization header never follows a redirect to another origin (signed storage URLs reject it anyway).
 * Throws TransportFailure when no answer arrived, ServiceError('cancelled') when the caller aborted.
 */
export async function exchange(deps: HttpDeps, req: ExchangeRequest, isServiceOrigin: (url: string) => boolean): Promise<Exchange> {
  if (req.signal?.aborted) throw cancelledError();
  // One controller per exchange, linked to the caller's signal by a listener that is removed afterwards: a batch
  // signal that lives for hours must not collect a listener per poll (AbortSignal.any keeps them alive).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  const onCallerAbort = () => controller.abort();
  req.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let keepLinked = false;
  const release = () => req.signal?.removeEventListener('abort', onCallerAbort);
  let url = req.url;
  try {
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { 'User-Agent': USER_AGENT, Accept: req.accept ?? 'application/json' };
      if (req.auth && isServiceOrigin(url)) headers.Authorization = `Bearer ${deps.apiKey}`;
      if (req.body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await deps.transport({ method: req.method, url: new URL(url), headers, body: req.body, signal: controller.signal });
      const location = response.headers.get('location');
      if (req.method === 'GET' && response.status >= 300 && response.status < 400 && location && hop < 5) {
        await discardBody(response.body);
        url = new URL(location, url).toString();
        continue;
      }
      if (req.stream) {
        // The caller's signal must keep governing the body; the caller releases the link when the body ends.
        keepLinked = true;
        return { status: response.status, headers: response.headers, body: response.body, rawHeaders: response.rawHeaders, release };
      }
      const text = await readText(response.body);
      return { status: response.status, headers: response.headers, text };
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw classify(error, req, timedOut, req.signal?.aborted === true);
  } finally {
    clearTimeout(timer);
    if (!keepLinked) release();
  }
}
