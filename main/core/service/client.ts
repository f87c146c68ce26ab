import { AppError } from '../../../shared/errors';
import { accountIdFor } from './account-id';
import type { ExecuteRequest, WorkflowDetail } from '../../../shared/service/model';
import { validateExecuteRequest } from '../../../shared/service/validate-request';
import { redactSecrets } from '../../../shared/redact';
import { silentLogger, type Logger } from '../log';
import { resolveBaseUrl } from './base-url';
import { readErrorText, withIdleTimeout } from './download';
import { ServiceError } from './errors';
import { exchange, TransportFailure, type Exchange, type ExchangeRequest, type HttpDeps } from './http';
import { errorFromResponse, failureInSuccessBody, parseRetryAfter, safeText } from './http-errors';
import { collectCatalog } from './list-pages';
import { createNodeTransport, type HeaderReader, type Transport } from './node-transport';
import { executionIdOf, normalizeBalance, normalizeExecution, normalizeWorkflowDetail, normalizeWorkflowPage, type NormalizeContext } from './normalize';
import { redactBody } from './normalize/redact-body';
import { redactingLogger } from './redacting-logger';
import { cancelledError, retryPolicy, withRetries, type RetryOptions, type TryResult } from './retry';
import type { ExecuteOutcome, RequestOptions, ServiceClient } from './types';

export interface ServiceClientOptions {
  /** With or without `/api/v1`, with or without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout for reads (default 30 s). */
  timeoutMs?: number;
  /** Timeout of an execute call, whose body can be tens of megabytes of images (default 120 s). */
  executeTimeoutMs?: number;
  /** Plain http to a non-loopback host is refused unless this is set (the key would travel in clear). */
  allowInsecureHttp?: boolean;
  /** How requests travel (default: node:http(s) with keep-alive, `node-transport.ts`); tests inject failures here. */
  transport?: Transport;
  logger?: Logger;
  retry?: RetryOptions;
}

const RETRYABLE_STATUS = (status: number) => status === 408 || status === 429 || (status >= 500 && status !== 501);

function pathLabel(url: URL): string {
  // Never the query: signed result URLs carry tokens there.
  return url.pathname;
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = resolveBaseUrl(options.baseUrl, options.allowInsecureHttp === true);
  const origin = new URL(baseUrl).origin;
  const basePath = new URL(baseUrl).pathname;
  // The bare body of the key (without its sk_live_ prefix) is a secret too: a service might echo just that part.
  const keyBody = options.apiKey.replace(/^sk_(live|test)_/, '');
  const secrets = keyBody.length >= 12 && keyBody !== options.apiKey ? [options.apiKey, keyBody] : [options.apiKey];
  /** Labels name caller-provided ids; those go through redaction like everything else that reaches a message. */
  const labelFor = (text: string) => redactSecrets(text, secrets);
  const log = redactingLogger(options.logger ?? silentLogger, secrets).child('service');
  const deps: HttpDeps = { transport: options.transport ?? createNodeTransport(), apiKey: options.apiKey, log };
  const policy = retryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const executeTimeoutMs = options.executeTimeoutMs ?? Math.max(timeoutMs, 120_000);
  const isServiceOrigin = (url: string) => new URL(url).origin === origin;
  const context = (endpoint: string): NormalizeContext => ({ endpoint, log, baseUrl });

  async function send(req: ExchangeRequest): Promise<Exchange> {
    const started = Date.now();
    const result = await exchange(deps, req, isServiceOrigin);
    log.debug('service answered', { call: req.label, status: result.status, ms: Date.now() - started });
    return result;
  }

  function responseError(label: string, ex: Exchange, body: unknown): ServiceError {
    return errorFromResponse({ status: ex.status, body, retryAfterHeader: ex.headers.get('retry-after'), endpoint: label, secrets });
  }

  function parseBody(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
    try {
      // The one door for what the service says: masked here, nothing downstream ever sees the key it echoed.
      return { ok: true, value: redactBody(JSON.parse(text ?? '') as unknown, secrets) };
    } catch {
      return { ok: false };
    }
  }

  function transportTry<T>(error: unknown): TryResult<T> {
    if (error instanceof TransportFailure) return error.retryable ? { retry: error.error } : { fail: error.error };
    throw error;
  }

  /** GET with retries on network errors, timeouts, 408/429/5xx and truncated JSON: reads are always safe to repeat. */
  async function getJson(label: string, path: string, opts: RequestOptions = {}): Promise<{ body: unknown; headers: HeaderReader }> {
    return withRetries(policy, { signal: opts.signal, log, label }, async () => {
      let ex: Exchange;
      try {
        const url = /^https?:\/\//i.test(path) ? path : `${baseUrl}${path}`;
        ex = await send({ method: 'GET', url, auth: true, signal: opts.signal, timeoutMs: opts.timeoutMs ?? timeoutMs, label });
      } catch (error) {
        return transportTry(error);
      }
      const parsed = parseBody(ex.text);
      if (ex.status >= 200 && ex.status < 300) {
        if (parsed.ok) {
          const failure = failureInSuccessBody({ status: ex.status, body: parsed.value, endpoint: label, secrets });
          return failure ? { fail: failure } : { done: { body: parsed.value, headers: ex.headers } };
        }
        return { retry: new ServiceError('shape', `The service's answer to ${label} is not valid JSON (it may have been cut off).`, { endpoint: label, status: ex.status }) };
      }
      const error = responseError(label, ex, parsed.ok ? parsed.value : ex.text);
      return RETRYABLE_STATUS(ex.status) ? { retry: error, retryAfterMs: error.retryAfterMs } : { fail: error };
    });
  }

  function unknownOutcome(label: string, reason: string): ExecuteOutcome {
    log.warn('execute outcome unknown: the request may have been charged; not resubmitting', { call: label, reason });
    return { kind: 'unknown', reason };
  }

  async function execute(workflow: WorkflowDetail, request: ExecuteRequest, opts: RequestOptions = {}): Promise<ExecuteOutcome> {
    const label = labelFor(`POST ${basePath}/workflows/${workflow.id}/execute`);
    const verdict = validateExecuteRequest(workflow, request);
    if (!verdict.ok) {
      const problems = verdict.problems.map((p) => ({ field: safeText(p.field, secrets), message: safeText(p.message, secrets) }));
      const list = safeText(problems.map((p) => `${p.field} ${p.message}`).join('; '), secrets);
      throw new ServiceError('validation', `Not sent: the request does not fit workflow "${workflow.name}": ${list}.`, {
        field: problems[0]?.field, problems, endpoint: label,
      });
    }
    const body = JSON.stringify({
      images: request.images,
      ...(request.texts && Object.keys(request.texts).length > 0 ? { texts: request.texts } : {}),
      ...(request.switchSelections && Object.keys(request.switchSelections).length > 0 ? { switchSelections: request.switchSelections } : {}),
      ...(request.globalOverrides && Object.values(request.globalOverrides).some((v) => v !== undefined) ? { globalOverrides: request.globalOverrides } : {}),
    });
    const url = `${baseUrl}/workflows/${pathSegment(workflow.id)}/execute`;
    return withRetries<ExecuteOutcome>(policy, { signal: opts.signal, log, label }, async () => {
      let ex: Exchange;
      try {
        ex = await send({ method: 'POST', url, body, auth: true, signal: opts.signal, timeoutMs: opts.timeoutMs ?? executeTimeoutMs, label });
      } catch (error) {
        // Only a request that provably never left may be sent again; anything else may have been charged.
        if (error instanceof TransportFailure && error.kind !== 'not_sent') {
          const why = error.error.code === 'cancelled' ? 'it was cancelled while in flight' : error.kind === 'timeout' ? 'no answer arrived in time' : 'the connection broke before the answer arrived';
          return { done: unknownOutcome(label, `The request may have reached the service, but ${why}. Check the service before submitting again.`) };
        }
        return transportTry(error);
      }
      const parsed = parseBody(ex.text);
      if (ex.status >= 200 && ex.status < 300) {
        // An explicit `success: false` is an answered rejection, not a lost answer.
        const failure = parsed.ok ? failureInSuccessBody({ status: ex.status, body: parsed.value, endpoint: label, secrets }) : undefined;
        if (failure) return { fail: failure };
        const executionId = parsed.ok ? executionIdOf(parsed.value) : undefined;
        if (executionId) return { done: { kind: 'accepted', executionId } };
        const why = parsed.ok ? 'its answer carried no execution id' : 'its answer was not valid JSON';
        return { done: unknownOutcome(label, `The service accepted the request (HTTP ${ex.status}) but ${why}. Check the service before submitting again.`) };
      }
      // A gateway's 502/504 says nothing about the service behind it, which may have processed the request.
      if (ex.status === 502 || ex.status === 504) {
        const what = ex.status === 504 ? 'timed out' : 'got a broken answer from the service';
        return { done: unknownOutcome(label, `A gateway in front of the service ${what} (HTTP ${ex.status}): the request may have been processed.`) };
      }
      const error = responseError(label, ex, parsed.ok ? parsed.value : ex.text);
      // 429/503 with Retry-After are explicit "not processed, come back later" answers.
      if ((ex.status === 429 || ex.status === 503) && ex.headers.get('retry-after') !== null) return { retry: error, retryAfterMs: error.retryAfterMs };
      return { fail: error };
    });
  }

  async function downloadResult(resultUrl: string, opts: RequestOptions = {}): Promise<Response> {
    let url: URL;
    try {
      url = new URL(resultUrl, `${baseUrl}/`);
    } catch {
      throw new ServiceError('validation', 'The result URL is not a URL.');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ServiceError('validation', `Result URLs must be http(s), not ${url.protocol}`);
    const label = labelFor(`GET ${url.host}${pathLabel(url)}`);
    const idleMs = opts.timeoutMs ?? timeoutMs;
    return withRetries(policy, { signal: opts.signal, log, label }, async () => {
      let ex: Exchange;
      try {
        ex = await send({ method: 'GET', url: url.toString(), auth: true, accept: '*/*', signal: opts.signal, timeoutMs: idleMs, stream: true, label });
      } catch (error) {
        return transportTry(error);
      }
      if (ex.status >= 200 && ex.status < 300) return { done: withIdleTimeout(ex.body!, { status: ex.status, headers: ex.rawHeaders ?? {} }, idleMs, label, ex.release) };
      // The exchange's timer stopped at the headers: the error body gets its own deadline and size cap.
      const { text, whole } = await readErrorText(ex.body!, idleMs);
      ex.release?.();
      if (opts.signal?.aborted) return { fail: cancelledError() };
      // A body cut short (stalled, too long, broken off) is not quoted: the status alone says what happened.
      if (!whole) log.warn('download error answer not read whole', { call: label, status: ex.status, bytes: Buffer.byteLength(text) });
      const body = whole ? text : '';
      const parsed = parseBody(body);
      const error = responseError(label, ex, parsed.ok ? parsed.value : body);
      return RETRYABLE_STATUS(ex.status) ? { retry: error, retryAfterMs: error.retryAfterMs } : { fail: error };
    });
  }

  return {
    baseUrl,
    account: {}, // one service and one key for this client's whole life
    accountId: accountIdFor(baseUrl, options.apiKey),
    async listWorkflows(query = {}, opts) {
      const label = `GET ${basePath}/workflows`;
      const search = query.tag ? `?tag=${pathSegment(query.tag)}` : '';
      // The spec shows no pagination; every common style a service may use is followed (see normalize/pagination),
      // on its own origin only and for a bounded number of pages, and a listing cut short says so.
      return collectCatalog(`${baseUrl}/workflows${search}`, {
        origin,
        fetchPage: async (url) => (await getJson(label, url, opts)).body,
        parse: (body) => normalizeWorkflowPage(context(label), body),
      });
    },
    async getWorkflow(id, opts) {
      const label = labelFor(`GET ${basePath}/workflows/${id}`);
      const { body } = await getJson(label, `/workflows/${pathSegment(id)}`, opts);
      return normalizeWorkflowDetail(context(label), body);
    },
    execute,
    async getExecution(id, opts) {
      const label = labelFor(`GET ${basePath}/executions/${id}`);
      const { body, headers } = await getJson(label, `/executions/${pathSegment(id)}`, opts);
      const execution = normalizeExecution(context(label), body, id);
      const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
      return retryAfterMs === undefined ? execution : { ...execution, retryAfterMs };
    },
    async getBalance(opts) {
      const label = `GET ${basePath}/balance`;
      const { body } = await getJson(label, '/balance', opts);
      return normalizeBalance(context(label), body);
    },
    downloadResult,
  };
}

/** An id or tag for a URL; a string that cannot be encoded (a lone UTF-16 surrogate) is bad input, not a crash. */
function pathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw new AppError('bad_request', 'The value is not valid text (it holds an unpaired UTF-16 surrogate).');
  }
}
