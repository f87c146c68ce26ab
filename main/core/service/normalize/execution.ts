import { ExecutionSchema, type Execution, type ExecutionStatus } from '../../../../shared/service/model';
import { formatZodError } from '../../../../shared/validation';
import { shapeError } from '../errors';
import type { NormalizeContext } from './context';
import { canonicalKey, isRecord, keysOf, pick, pickValue, toNumber, toText, unwrap, type WireRecord } from './wire';

const EXECUTION_ID_KEYS = ['executionId', 'id', 'taskId', 'jobId', 'runId', 'predictionId'];
const STATUS_KEYS = ['status', 'state', 'executionStatus', 'phase'];
const PROGRESS_KEYS = ['progress', 'progressPercent', 'percent', 'percentage', 'progressPct', 'pct', 'percentComplete'];
const RESULT_KEYS = ['resultUrls', 'results', 'outputs', 'output', 'images', 'urls', 'resultUrl', 'outputUrls', 'outputUrl', 'imageUrls', 'files', 'result', 'data'];
const URL_KEYS = ['url', 'uri', 'href', 'src', 'link', 'downloadUrl', 'signedUrl'];
const LABEL_KEYS = ['label', 'look', 'variant', 'variation', 'style', 'preset', 'title', 'name'];
const ERROR_KEYS = ['error', 'errorMessage', 'failureReason', 'reason', 'message', 'detail'];

const STATUS_SYNONYMS: Record<ExecutionStatus, readonly string[]> = {
  queued: ['queued', 'pending', 'waiting', 'submitted', 'created', 'accepted', 'scheduled', 'enqueued', 'new', 'starting'],
  running: ['running', 'processing', 'inprogress', 'started', 'active', 'working', 'executing', 'generating'],
  completed: ['completed', 'succeeded', 'success', 'successful', 'done', 'finished', 'complete', 'ok'],
  failed: ['failed', 'error', 'errored', 'failure', 'fail', 'rejected'],
  cancelled: ['cancelled', 'canceled', 'expired', 'timeout', 'timedout', 'aborted', 'stopped', 'cancel'],
};
const STATUS_BY_WORD = new Map<string, ExecutionStatus>();
for (const [status, words] of Object.entries(STATUS_SYNONYMS) as [ExecutionStatus, readonly string[]][]) {
  for (const word of words) STATUS_BY_WORD.set(word, status);
}

/** A wire status word in any casing or separator style (`IN_PROGRESS`, `in-progress`) → Batchroom's status. */
export function mapStatus(raw: string): ExecutionStatus | undefined {
  return STATUS_BY_WORD.get(canonicalKey(raw));
}

function looksLikeExecution(value: unknown): boolean {
  return isRecord(value) && (pick(value, EXECUTION_ID_KEYS) !== undefined || pick(value, STATUS_KEYS) !== undefined) && !isEnvelopeStatus(value);
}

/** `{success: true, status: 'ok', data: {...}}`: a status that belongs to the envelope, not to the execution. */
function isEnvelopeStatus(value: WireRecord): boolean {
  const inner = pickValue(value, ['data', 'result', 'payload']);
  return isRecord(inner) && pick(value, EXECUTION_ID_KEYS) === undefined;
}

function urlOf(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw.trim() || undefined;
  if (isRecord(raw)) {
    const direct = toText(pickValue(raw, URL_KEYS));
    if (direct) return direct;
  }
  return undefined;
}

/** Result URLs from a string, a list of strings/objects, a `{name: url}` map or a nested `{urls: [...]}` object. */
function urlsOf(raw: unknown, depth = 0): string[] {
  if (raw === undefined || raw === null || depth > 3) return [];
  if (Array.isArray(raw)) return raw.flatMap((item) => (isRecord(item) && !urlOf(item) ? urlsOf(item, depth + 1) : (urlOf(item) ?? [])));
  const single = urlOf(raw);
  if (single) return [single];
  if (isRecord(raw)) {
    const nested = pick(raw, RESULT_KEYS);
    if (nested) return urlsOf(nested.value, depth + 1);
    return Object.values(raw).flatMap((value) => (typeof value === 'string' || isRecord(value) ? (urlOf(value) ?? []) : []));
  }
  return [];
}

/** A label worth naming a file after: short text, not a file name of the service's own (`result_0.png`). */
function labelText(raw: unknown): string | undefined {
  const text = toText(raw)?.trim();
  if (!text || text.length > 64 || /^\d+$/.test(text) || /\.[a-z0-9]{2,4}$/i.test(text) || /^[a-z]+:\/\//i.test(text)) return undefined;
  return text;
}

/**
 * Labels the service gives its results, wherever it puts them: `[{url, label}]` objects (or look/variant/name…)
 * or a `{warm: url, cool: url}` map, under any of the result keys. Returned by result URL (before resolving).
 */
function labelsByUrl(record: WireRecord): Map<string, string> {
  const labels = new Map<string, string>();
  const visit = (raw: unknown, level: number): void => {
    if (level > 3 || raw === null || raw === undefined) return;
    if (Array.isArray(raw)) return void raw.forEach((entry) => visit(entry, level + 1));
    if (!isRecord(raw)) return;
    const url = urlOf(raw);
    if (url) {
      const label = labelText(pickValue(raw, LABEL_KEYS));
      if (label && !labels.has(url)) labels.set(url, label);
      return;
    }
    const nested = pick(raw, RESULT_KEYS);
    if (nested) return visit(nested.value, level + 1);
    for (const [key, value] of Object.entries(raw)) {
      const mapped = typeof value === 'string' ? value.trim() : undefined;
      const label = labelText(key);
      if (mapped && label && !labels.has(mapped)) labels.set(mapped, label);
      else if (isRecord(value)) visit(value, level + 1);
    }
  };
  for (const key of RESULT_KEYS) visit(pickValue(record, [key]), 0);
  return labels;
}

/** Relative result URLs (`/results/abc.png`) are resolved against the service's own address. */
function absolute(ctx: NormalizeContext, url: string): string | undefined {
  try {
    return new URL(url, `${ctx.baseUrl}/`).toString();
  } catch {
    return undefined;
  }
}

function errorText(raw: WireRecord): string | undefined {
  const value = pickValue(raw, ERROR_KEYS);
  if (isRecord(value)) return toText(pickValue(value, ['message', 'detail', 'description', 'reason', 'code']));
  return toText(value);
}

/**
 * Progress is read as a percentage 0–100 (a number or a numeric string, `"40%"` too). Fractions 0–1 are NOT
 * rescaled: `1` would be ambiguous between 1 % and 100 %, and a wrong guess only affects a progress bar, whereas the
 * status decides what happens next. Values outside 0–100 are clamped.
 */
function progressOf(raw: WireRecord, status: ExecutionStatus): number {
  let value = pickValue(raw, PROGRESS_KEYS);
  if (isRecord(value)) value = pickValue(value, ['percent', 'percentage', 'value', 'current']);
  const progress = toNumber(value);
  if (status === 'completed') return 100;
  if (progress === undefined) return 0;
  return Math.min(100, Math.max(0, progress));
}

function statusOf(ctx: NormalizeContext, raw: WireRecord, hasResults: boolean): ExecutionStatus {
  const found = pick(raw, STATUS_KEYS);
  let word = found?.value;
  if (isRecord(word)) word = pickValue(word, ['name', 'value', 'code', 'status', 'state']);
  const text = toText(word);
  if (text === undefined) {
    // No status at all: results mean it finished; anything else cannot be interpreted safely.
    if (hasResults) return 'completed';
    throw shapeError(ctx.endpoint, 'the execution has no status', keysOf(raw));
  }
  const mapped = mapStatus(text);
  if (mapped) return mapped;
  ctx.log.warn('unknown execution status; treating it as running', { endpoint: ctx.endpoint, status: text.slice(0, 40) });
  return 'running';
}

/** The answer to execute: only the execution id matters. Returns undefined when there is none. */
export function executionIdOf(body: unknown): string | undefined {
  const record = unwrap(body, (v) => isRecord(v) && pick(v, EXECUTION_ID_KEYS) !== undefined, ['execution', 'task', 'job']);
  if (!isRecord(record)) return undefined;
  return toText(pickValue(record, EXECUTION_ID_KEYS));
}

export function normalizeExecution(ctx: NormalizeContext, body: unknown, requestedId: string): Execution {
  const record = unwrap(body, looksLikeExecution, ['execution', 'task', 'job']);
  if (!isRecord(record)) throw shapeError(ctx.endpoint, 'the execution is not an object', keysOf(record));
  const id = toText(pickValue(record, EXECUTION_ID_KEYS)) ?? requestedId;
  const rawUrls = urlsOf(pickValue(record, RESULT_KEYS));
  const resultUrls = [...new Set(rawUrls.map((u) => absolute(ctx, u)).filter((u): u is string => u !== undefined))];
  const status = statusOf(ctx, record, resultUrls.length > 0);
  const execution: Execution = { id, status, progress: progressOf(record, status), resultUrls };
  const labels = new Map([...labelsByUrl(record)].map(([url, label]) => [absolute(ctx, url), label] as const));
  const resultLabels = resultUrls.map((url) => labels.get(url) ?? null);
  if (resultLabels.some((label) => label !== null)) execution.resultLabels = resultLabels;
  if (status === 'failed' || status === 'cancelled') {
    const error = errorText(record);
    if (error) execution.error = error.slice(0, 500);
  }
  const parsed = ExecutionSchema.safeParse(execution);
  if (!parsed.success) {
    const concept = status === 'completed' && resultUrls.length === 0 ? 'a completed execution carries no result URLs' : 'the execution is invalid';
    throw shapeError(ctx.endpoint, concept, keysOf(record), formatZodError(parsed.error));
  }
  return parsed.data;
}
