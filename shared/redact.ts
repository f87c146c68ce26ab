// The API key may appear in exactly one place: the Authorization header. Everything else that could carry it
// (error messages, logs, events, files) goes through these helpers.

const KEY_PATTERN = /\b(sk_(?:live|test)_)[A-Za-z0-9_-]{4,}/g;
const BEARER_PATTERN = /(Bearer\s+)[^\s"',;]+/gi;

/** `sk_live_abcdef1234` → `sk_live_…1234`; short or unknown keys keep no more than their last 4 characters. */
export function maskKey(key: string): string {
  const trimmed = key.trim();
  if (trimmed.length === 0) return '';
  const prefix = /^sk_(live|test)_/.exec(trimmed)?.[0] ?? '';
  const rest = trimmed.slice(prefix.length);
  const tail = rest.length > 8 ? rest.slice(-4) : '';
  return `${prefix}…${tail}`;
}

/**
 * Replaces every occurrence of the given secrets, any `sk_live_`/`sk_test_` token and any bearer credential in
 * `text` by its masked form. Used on every string that leaves the process boundary.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(maskKey(secret));
  }
  out = out.replace(KEY_PATTERN, (whole) => maskKey(whole));
  out = out.replace(BEARER_PATTERN, (_m, bearer: string) => `${bearer}[redacted]`);
  return out;
}
