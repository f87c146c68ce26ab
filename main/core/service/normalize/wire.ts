// Helpers for reading wire records whose key spelling is not known in advance. Keys are compared by a canonical
// form (lowercase, separators removed), so `creditCost`, `credit_cost`, `CreditCost`, `credit-cost` and
// `CREDIT_COST` are the same key. Values are converted leniently (numeric strings are numbers) but never guessed.

export type WireRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is WireRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function canonicalKey(key: string): string {
  return key.replace(/[\s_\-.]/g, '').toLowerCase();
}

/** The first of `names` (in preference order) present on `record` with a value other than null/undefined. */
export function pick(record: WireRecord, names: readonly string[]): { key: string; value: unknown } | undefined {
  const byCanonical = new Map<string, string>();
  for (const key of Object.keys(record)) {
    const canonical = canonicalKey(key);
    if (!byCanonical.has(canonical)) byCanonical.set(canonical, key);
  }
  for (const name of names) {
    const key = byCanonical.get(canonicalKey(name));
    if (key === undefined) continue;
    const value = record[key];
    if (value !== null && value !== undefined) return { key, value };
  }
  return undefined;
}

export function pickValue(record: WireRecord, names: readonly string[]): unknown {
  return pick(record, names)?.value;
}

export function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return ['(a list)'];
  return isRecord(value) ? Object.keys(value) : [`(${value === null ? 'null' : typeof value})`];
}

/** A finite number from a number or a numeric string (`"12"`, `" 3.5 "`, `"40%"`); undefined otherwise. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const trimmed = value.trim().replace(/%$/, '').trim();
    if (trimmed === '' || !/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) return undefined;
    const parsed = Number(trimmed);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** A non-empty string from a string or a number (ids are sometimes numeric on the wire). */
export function toText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function toBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['true', 'yes', '1', 'y'].includes(v)) return true;
    if (['false', 'no', '0', 'n'].includes(v)) return false;
  }
  return undefined;
}

/** Keys that carry the payload inside a response envelope (`{data: …}`, `{result: …}`, `{success, data}`). */
export const ENVELOPE_KEYS = ['data', 'result', 'payload', 'response', 'body'] as const;

/**
 * Peels envelopes until `isTarget` accepts the value or there is no envelope left. The target test runs first, so
 * a record that happens to carry a `data` or `result` field of its own is not mistaken for an envelope.
 */
export function unwrap(body: unknown, isTarget: (value: unknown) => boolean, extraEnvelopeKeys: readonly string[] = []): unknown {
  let current = body;
  for (let depth = 0; depth < 4; depth++) {
    if (isTarget(current) || !isRecord(current)) return current;
    const inner = pick(current, [...extraEnvelopeKeys, ...ENVELOPE_KEYS]);
    if (!inner || (!isRecord(inner.value) && !Array.isArray(inner.value))) return current;
    current = inner.value;
  }
  return current;
}
