import { BlockList, isIP } from 'node:net';

// Only names that never reach DNS count: `localhost` itself and loopback literals. `*.localhost` is left out on
// purpose — whether such a name stays on this machine depends on the resolver, and a live key over plain http to a
// name someone else's DNS answers for would cross the network in clear.
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:7f00:0', 104, 'ipv6'); // ::ffff:127.0.0.0/104, an IPv4-mapped loopback address

/** Loopback names and addresses: traffic to them never leaves this machine (literal `localhost`, 127/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  if (family === 4) return LOOPBACK.check(bare, 'ipv4');
  if (family === 6) return LOOPBACK.check(bare, 'ipv6');
  return false;
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
