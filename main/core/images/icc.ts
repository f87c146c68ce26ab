// Reads what an embedded ICC profile is, by its primaries (else its description): enough to tell the wide-gamut spaces photographers use
// (Display P3, Adobe RGB, ProPhoto) from sRGB and everything else. A profile that cannot be parsed is "unknown",
// never an error: colour handling then falls back to sRGB, and the photo is still processed.

export type WideGamut = 'p3' | 'adobe-rgb' | 'prophoto';

/** The profile's description (`desc` tag, ICC v2 text or v4 multi-language), or null when it has none or is damaged. */
export function iccDescription(profile: Uint8Array): string | null {
  const tag = tagOf(Buffer.from(profile.buffer, profile.byteOffset, profile.byteLength), 'desc');
  if (!tag || tag.length < 12) return null;
  const type = tag.toString('latin1', 0, 4);
  if (type === 'desc') {
    const length = tag.readUInt32BE(8);
    return clean(tag.toString('latin1', 12, Math.min(12 + length, tag.length)));
  }
  if (type === 'mluc' && tag.length >= 28) {
    const length = tag.readUInt32BE(20);
    const start = tag.readUInt32BE(24);
    if (start + length > tag.length) return null;
    // A copy: swap16 works in place, and the profile belongs to the caller.
    return clean(Buffer.from(tag.subarray(start, start + (length & ~1))).swap16().toString('utf16le'));
  }
  return null;
}

const clean = (text: string): string | null => text.replace(/\0+$/, '').trim() || null;

/** A tag's bytes by signature, or null. */
function tagOf(buf: Buffer, signature: string): Buffer | null {
  if (buf.length < 132) return null;
  const count = buf.readUInt32BE(128);
  for (let i = 0; i < Math.min(count, 100); i++) {
    const at = 132 + i * 12;
    if (at + 12 > buf.length) return null;
    if (buf.toString('latin1', at, at + 4) !== signature) continue;
    const offset = buf.readUInt32BE(at + 4);
    const size = buf.readUInt32BE(at + 8);
    return offset + size <= buf.length ? buf.subarray(offset, offset + size) : null;
  }
  return null;
}

/** The red primary (D50-adapted XYZ, as matrix/TRC profiles store it), or null. */
function redColorant(buf: Buffer): [number, number, number] | null {
  const tag = tagOf(buf, 'rXYZ');
  if (!tag || tag.length < 20 || tag.toString('latin1', 0, 4) !== 'XYZ ') return null;
  return [tag.readInt32BE(8) / 65536, tag.readInt32BE(12) / 65536, tag.readInt32BE(16) / 65536];
}

// Red primaries of the wide spaces, adapted to D50: the colorants say what a profile is whatever its name (libvips'
// own P3 profile is called "sP3C"); the description is the fallback for LUT-based profiles.
const RED_PRIMARIES: [WideGamut, [number, number, number]][] = [
  ['p3', [0.5151, 0.2412, -0.0011]],
  ['adobe-rgb', [0.6097, 0.3111, 0.0195]],
  ['prophoto', [0.7977, 0.288, 0]],
];

/** Which wide-gamut space a profile describes, or null for sRGB, other spaces and unreadable profiles. */
export function wideGamutOf(profile: Uint8Array | undefined | null): WideGamut | null {
  if (!profile) return null;
  const buf = Buffer.from(profile.buffer, profile.byteOffset, profile.byteLength);
  const red = redColorant(buf);
  if (red) {
    const match = RED_PRIMARIES.find(([, p]) => Math.abs(p[0] - red[0]) < 0.01 && Math.abs(p[1] - red[1]) < 0.01 && Math.abs(p[2] - red[2]) < 0.01);
    return match ? match[0] : null;
  }
  const description = iccDescription(profile) ?? '';
  if (/display p3|\bp3\b|dci-p3/i.test(description)) return 'p3';
  if (/adobe ?rgb|compatible with adobe rgb/i.test(description)) return 'adobe-rgb';
  if (/prophoto|romm/i.test(description)) return 'prophoto';
  return null;
}
