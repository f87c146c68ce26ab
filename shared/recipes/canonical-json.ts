/**
 * JSON with object keys sorted and `undefined` members left out, so equal values serialize (and hash) equally
 * whatever order they were written in. The same rules as the engine's parameters hash (main/core/journal/ledger-key.ts),
 * which a test holds it to: a recipe's fingerprint must name the parameters exactly as the engine's claims do.
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
