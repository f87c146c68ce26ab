import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { normaliseAddress } from './ip-normalise';

// The sandbox downloads http(s) images it is given. Without a guard, anyone who can call it could make it fetch
// from the machine's own network (routers, NAS admin pages, cloud metadata at 169.254.169.254): server-side request
// forgery. Every hop — the first URL and each redirect — is resolved first, refused unless every address is
// public, and then connected to by that checked address (so a DNS answer that changes in between cannot rebind).

/** Address ranges that are not the public internet (IANA special-purpose registries, v4 and v6). */
const NOT_PUBLIC = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128], ['::1', 128], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7],
  ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(prefix, bits, 'ipv6');

/**
 * Is this IP literal on the public internet? Every form is normalised first (ip-normalise.ts): IPv4 written in hex,
 * octal or as one number, and IPv6 carrying IPv4 (`::127.0.0.1`, `::ffff:7f00:1`, `64:ff9b::a00:1`) are judged
 * as the IPv4 address they reach.
 */
export function isPublicAddress(address: string): boolean {
  const normal = normaliseAddress(address);
  if (!normal) return false;
  return normal.family === 4 ? !NOT_PUBLIC.check(normal.address, 'ipv4') : !NOT_PUBLIC.check(normal.address, 'ipv6');
}

export class UrlRefused extends Error {
  constructor(readonly reason: 'private_url' | 'unsupported_url_scheme' | 'too_many_redirects' | 'unresolvable', message: string) {
    super(message);
    this.name = 'UrlRefused';
  }
}

export interface GuardedFetchOptions {
  /** Tests serve images from loopback: only a sandbox started with --allow-private-urls reaches private addresses. */
  allowPrivate: boolean;
  signal: AbortSignal;
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** Injectable for tests (a name that resolves to a private address). */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

async function checkedAddress(url: URL, options: GuardedFetchOptions): Promise<{ address: string; family: number }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const resolve = options.resolve ?? ((name: string) => lookup(name, { all: true, verbatim: true }));
  let addresses: Array<{ address: string; family: number }>;
  // A numeric host the URL parser left alone (it normalises http(s) hosts, but the resolver would read `0x7f.1`
  // as 127.0.0.1 too) is an address, not a name.
  const literal = isIP(hostname) ? null : normaliseAddress(hostname);
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
  else if (literal) addresses = [{ address: literal.address, family: literal.family }];
  else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      throw new UrlRefused('unresolvable', `the host ${hostname} does not resolve (${(error as { code?: string }).code ?? 'lookup failed'})`);
    }
  }
  if (addresses.length === 0) throw new UrlRefused('unresolvable', `the host ${hostname} does not resolve`);
  if (!options.allowPrivate) {
    const local = addresses.find((entry) => !isPublicAddress(entry.address));
    if (local) throw new UrlRefused('private_url', `${hostname} resolves to ${local.address}, which is not a public address; the sandbox fetches only public URLs`);
  }
  return addresses[0]!;
}

/**
 * GETs an http(s) URL following up to `maxRedirects` redirects, each hop checked as above. Resolves with the final
 * response (any status); throws UrlRefused for a refused hop and the network error otherwise.
 */
export async function guardedGet(url: URL, options: GuardedFetchOptions): Promise<IncomingMessage> {
  let current = url;
  for (let hop = 0; hop <= (options.maxRedirects ?? 5); hop += 1) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw new UrlRefused('unsupported_url_scheme', `URL scheme "${current.protocol.replace(':', '')}" is not allowed`);
    }
    const { address, family } = await checkedAddress(current, options);
    const request = current.protocol === 'https:' ? httpsRequest : httpRequest;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(current, {
        method: 'GET',
        signal: options.signal,
        headers: { ...options.headers, host: current.host },
        // Connect to the address that was checked, never to a second answer from DNS.
        lookup: (_hostname, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
          else callback(null, address, family);
        },
      });
      req.once('response', resolve);
      req.once('error', reject);
      req.end();
    });
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      current = new URL(location, current);
      continue;
    }
    return response;
  }
  throw new UrlRefused('too_many_redirects', `more than ${options.maxRedirects ?? 5} redirects`);
}

/**
 * The Host header check (DNS rebinding): a web page whose own name was made to resolve to 127.0.0.1 can reach the
 * sandbox, but its requests still carry that name. Accepted: the sandbox's own host, `localhost`, and IP literals
 * (a rebinding needs a name), each with the sandbox's port.
 */
export function isAllowedHostHeader(header: string | undefined, origin: string): boolean {
  if (!header) return false;
  const own = new URL(origin);
  let parsed: URL;
  try {
    parsed = new URL(`http://${header}`);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password || parsed.pathname !== '/' || `${parsed.hostname}:${parsed.port}` !== `${parsed.hostname}:${own.port}`) return false;
  const name = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return name === own.hostname.replace(/^\[|\]$/g, '').toLowerCase() || name === 'localhost' || isIP(name) !== 0;
}
