import { isIP } from 'node:net';

/** Loopback names and addresses: traffic to them never leaves this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '::ffff:127.0.0.1';
}

/**
 * Why `apiKey` must not be sent to `serviceUrl`, or null. Sandbox keys (sk_test_) only go to a sandbox on this
 * machine; every other key (live) only over https — plain http only to loopback, where it never crosses a network.
 */
export function keyTransportProblem(serviceUrl: string, apiKey: string): string | null {
  let url: URL;
  try {
    url = new URL(serviceUrl);
  } catch {
    return 'the service URL is not a URL';
  }
  const loopback = isLoopbackHost(url.hostname);
  if (apiKey.startsWith('sk_test_') && !loopback) return 'sandbox keys (sk_test_) are only sent to a sandbox on this machine';
  if (!apiKey.startsWith('sk_test_') && url.protocol !== 'https:' && !loopback) return 'live keys are only sent over https';
  return null;
}
