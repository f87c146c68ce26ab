import { redactSecrets } from '../../../../shared/redact';

/** Deeper than any answer the normalizers read; a body nested past it is cut there rather than walked for ever. */
const MAX_DEPTH = 64;

/**
 * Every string of a parsed service answer (values and object keys alike) with the key in use and any
 * `sk_live_`/`sk_test_` token masked. Applied to each body as it is parsed, before any normalizer reads it: a
 * hostile or buggy service that echoes the key in a workflow name, an error text or a result URL would otherwise
 * get it into journal.db, the CLI's --json output, results' XMP (WorkflowName) and the renderer.
 */
export function redactBody(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((item) => redactBody(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty: a key named __proto__ from JSON.parse stays plain data, as it was.
    Object.defineProperty(out, redactSecrets(key, secrets), { value: redactBody(item, secrets, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
