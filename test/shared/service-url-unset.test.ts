import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, isUnsetServiceUrl, LIVE_SERVICE_URL } from '../../shared/settings/schema';

// Issue 31 #18: the default service URL is "none chosen" (the spec names no public address), shown as such.
describe('the default service URL', () => {
  it('is the reserved "none chosen" value, recognised by its origin whatever its path', () => {
    expect(DEFAULT_SETTINGS.serviceUrl).toBe(LIVE_SERVICE_URL);
    expect(new URL(LIVE_SERVICE_URL).hostname.endsWith('.example')).toBe(true);
    for (const url of [LIVE_SERVICE_URL, `${LIVE_SERVICE_URL}/`, 'https://api.batchroom-service.example']) expect(isUnsetServiceUrl(url)).toBe(true);
    for (const url of ['https://api.provider.test/api/v1', 'http://127.0.0.1:8080/api/v1', 'not a url']) expect(isUnsetServiceUrl(url)).toBe(false);
  });
});
