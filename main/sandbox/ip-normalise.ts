import { isIP } from 'node:net';

// One canonical form for every way of writing an IP address, so the SSRF guard checks what the socket will reach
// and not what the text looks like: `[::127.0.0.1]`, `[::ffff:7f00:1]`, `0x7f.1`, `0177.0.0.1` and `2130706433` are
// all 127.0.0.1. An IPv6 address that carries an IPv4 address (compatible, mapped, translated, NAT64) is reduced to
// that IPv4 address, since that is where a dual-stack host or a translator delivers the packets.

export type NormalisedAddress = { family: 4 | 6; address: string };

/** One inet_aton part: decimal, 0x-hex or 0-octal, as the C resolver (and WHATWG URL) read them. */
function atonPart(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return parseInt(part, 10);
  return null;
}

/** An IPv4 address in any inet_aton form (a, a.b, a.b.c, a.b.c.d; each part decimal, hex or octal) as a 32-bit number. */
export function parseIpv4(text: string): number | null {
  if (text.length > 64) return null;
  const parts = text.split('.');
  if (parts.length > 4 || parts.some((part) => part === '')) return null;
  const values = parts.map(atonPart);
  if (values.some((value) => value === null || !Number.isFinite(value))) return null;
  const numbers = values as number[];
  const last = numbers.pop()!;
  if (numbers.some((value) => value > 255) || last >= 2 ** (8 * (4 - numbers.length))) return null;
  return numbers.reduce((sum, value, index) => sum + value * 2 ** (8 * (3 - index)), 0) + last;
}

function dotted(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** The eight 16-bit groups of an IPv6 literal (node:net has already said it is one). */
function ipv6Groups(text: string): number[] {
  let body = text;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (v4) {
    const value = parseIpv4(v4[1]!)!;
    tail.push(value >>> 16, value & 0xffff);
    body = body.slice(0, -v4[1]!.length).replace(/:$/, '');
    if (body.endsWith(':')) body += ':';
  }
  const [head, rest] = body.includes('::') ? body.split('::') as [string, string] : [body, null];
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = rest === null ? [] : parse(rest);
  const fill = 8 - front.length - back.length - tail.length;
  return [...front, ...Array<number>(rest === null ? 0 : fill).fill(0), ...back, ...tail];
}

/**
 * The canonical address for any IP literal (brackets and a zone id allowed), or null when `text` is not one.
 * IPv4 comes back dotted-quad; an IPv6 address embedding IPv4 comes back as that IPv4 address.
 */
export function normaliseAddress(text: string): NormalisedAddress | null {
  const bare = text.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  if (bare.length === 0 || bare.length > 64) return null;
  if (isIP(bare) !== 6) {
    const v4 = parseIpv4(bare);
    return v4 === null ? null : { family: 4, address: dotted(v4) };
  }
  const g = ipv6Groups(bare);
  if (g.length !== 8 || g.some((group) => !Number.isInteger(group) || group < 0 || group > 0xffff)) return null;
  const low32 = g[6]! * 0x10000 + g[7]!;
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  // ::a.b.c.d (compatible; not :: and ::1 themselves), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated),
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix).
  const compatible = zeros(0, 6) && low32 > 1;
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const translated = zeros(0, 4) && g[4] === 0xffff && g[5] === 0;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (compatible || mapped || translated || nat64) return { family: 4, address: dotted(low32) };
  return { family: 6, address: g.map((group) => group.toString(16)).join(':') };
}
