/**
 * JSON with object keys sorted and `undefined` members left out, so equal values serialize (and hash) equally
 * whatever order they were written in. The one serializer of the engine's parameters hash (main/core/journal/ledger-key.ts) and a
 * recipe's fingerprint (shared/recipes/fingerprint.ts): both must name the parameters exactly alike.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
