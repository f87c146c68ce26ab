// The service URL when none is chosen, apart from the zod schemas (schema.ts): the CLI's --help path reads it through
// the credentials and must not load zod (built-cli.test.ts).

/**
 * The service URL when none was chosen: "no live service yet". The service's spec (service-api-v1.md) names no public
 * address — each provider gives its own `https://…/api/v1` — so no real host can be built in. What runs by default is
 * the built-in sandbox (README, docs/sandbox.md: `sandboxMode: 'auto'` uses it while this URL has no key). The value
 * is a reserved `.example` name that can never resolve, so a key sent before a URL is chosen fails with "host not found"
 * instead of reaching a stranger's server; the app shows it as "none set" (isUnsetServiceUrl), never as an address.
 * It stays this exact string: keys in the OS keychain are filed under it.
 */
export const LIVE_SERVICE_URL = 'https://api.batchroom-service.example/api/v1';

/** Whether a service URL is the built-in "none chosen" value (by origin: `/api/v1` or a trailing slash do not matter). */
export function isUnsetServiceUrl(url: string): boolean {
  // shared/ has no URL global (it runs nowhere in particular): the origin is the scheme and host, compared as a URL
  // parser would (case-insensitive, a default :443 ignored).
  const originOf = (value: string) => /^(https?:\/\/[^/?#]+)/i.exec(value.trim())?.[1]?.toLowerCase().replace(/^(https:\/\/[^/]+):443$/, '$1') ?? null;
  return originOf(url) !== null && originOf(url) === originOf(LIVE_SERVICE_URL);
}
