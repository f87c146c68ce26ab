import sharp from 'sharp';
import { insertIccChunk } from '../../../main/core/images/heif-colour';

// Colour truth for tests, computed here rather than by the library under test: patches defined in sRGB, their CIELAB
// (D50) values, the same colours encoded into wide-gamut spaces through each space's matrix and tone curve, ICC v2
// profiles built from those very numbers, and CIEDE2000 to compare what comes out with what went in.

export type Rgb = [number, number, number];
export type Lab = [number, number, number];
type Xyz = [number, number, number];

/** Photographers' test colours: a saturated red, a skin tone, foliage green, sky blue and mid grey (sRGB, 8-bit). */
export const PATCHES: Rgb[] = [[200, 30, 39], [224, 172, 138], [60, 160, 80], [40, 70, 170], [128, 128, 128]];
export const PATCH_SIZE = 32;

export interface MatrixSpace {
  name: string;
  /** Colorants adapted to D50 (what an ICC matrix/TRC profile stores): columns of the RGB → XYZ matrix. */
  red: Xyz;
  green: Xyz;
  blue: Xyz;
  /** Pure power-law tone curve; null: the sRGB piecewise curve. */
  gamma: number | null;
}

export const SRGB: MatrixSpace = { name: 'sRGB', red: [0.4361, 0.2225, 0.0139], green: [0.3851, 0.7169, 0.0971], blue: [0.1431, 0.0606, 0.7141], gamma: null };
// Display P3 has sRGB's tone curve (as Apple's profile and libvips' own do).
export const DISPLAY_P3: MatrixSpace = { name: 'Display P3 (test)', red: [0.5151, 0.2412, -0.0011], green: [0.292, 0.6922, 0.0419], blue: [0.1571, 0.0666, 0.7841], gamma: null };
export const ADOBE_RGB: MatrixSpace = { name: 'Adobe RGB (1998) (test)', red: [0.6097, 0.3111, 0.0195], green: [0.2053, 0.6257, 0.0609], blue: [0.1492, 0.0632, 0.7446], gamma: 563 / 256 };
export const PROPHOTO: MatrixSpace = { name: 'ProPhoto RGB (test)', red: [0.7977, 0.288, 0], green: [0.1352, 0.7119, 0], blue: [0.0313, 0.0001, 0.8249], gamma: 1.8 };

const D50: Xyz = [0.9642, 1, 0.8249];

const decodeCurve = (v: number, gamma: number | null) => (gamma === null ? (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4) : v ** gamma);
const encodeCurve = (v: number, gamma: number | null) => (gamma === null ? (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055) : v ** (1 / gamma));

function toXyz(space: MatrixSpace, rgb: readonly number[]): Xyz {
  const [r, g, b] = rgb.map((v) => decodeCurve(v, space.gamma)) as Xyz;
  return [0, 1, 2].map((i) => space.red[i]! * r + space.green[i]! * g + space.blue[i]! * b) as Xyz;
}

function invert3(m: number[][]): number[][] {
  const [[a, b, c], [d, e, f], [g, h, i]] = m as [[number, number, number], [number, number, number], [number, number, number]];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [[e * i - f * h, c * h - b * i, b * f - c * e], [f * g - d * i, a * i - c * g, c * d - a * f], [d * h - e * g, b * g - a * h, a * e - b * d]].map((row) => row.map((v) => v / det));
}

/** A colour (0–1 components in `space`) as CIELAB D50. */
export function labOf(space: MatrixSpace, rgb: readonly number[]): Lab {
  const f = (t: number) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  const [x, y, z] = toXyz(space, rgb).map((v, i) => f(v / D50[i]!)) as Xyz;
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** An sRGB 8-bit colour as it is encoded in `space` (0–1 components). */
export function convert(rgb8: Rgb, space: MatrixSpace): Rgb {
  const xyz = toXyz(SRGB, rgb8.map((v) => v / 255));
  const m = invert3([0, 1, 2].map((row) => [space.red[row]!, space.green[row]!, space.blue[row]!]));
  return m.map((row) => encodeCurve(Math.min(1, Math.max(0, row[0]! * xyz[0] + row[1]! * xyz[1] + row[2]! * xyz[2])), space.gamma)) as Rgb;
}

/** CIEDE2000 colour difference. */
export function deltaE2000([L1, a1, b1]: Lab, [L2, a2, b2]: Lab): number {
  const rad = Math.PI / 180;
  const C1 = Math.hypot(a1, b1), C2 = Math.hypot(a2, b2), Cm = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
  const a1p = (1 + G) * a1, a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1), C2p = Math.hypot(a2p, b2);
  const hue = (b: number, a: number) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1p = hue(b1, a1p), h2p = hue(b2, a2p);
  const dLp = L2 - L1, dCp = C2p - C1p;
  let dhp = C1p * C2p === 0 ? 0 : h2p - h1p;
  if (dhp > 180) dhp -= 360; else if (dhp < -180) dhp += 360;
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * rad);
  const Lpm = (L1 + L2) / 2, Cpm = (C1p + C2p) / 2;
  let hpm = h1p + h2p;
  if (C1p * C2p !== 0) hpm = Math.abs(h1p - h2p) > 180 ? (h1p + h2p + (h1p + h2p < 360 ? 360 : -360)) / 2 : (h1p + h2p) / 2;
  const T = 1 - 0.17 * Math.cos((hpm - 30) * rad) + 0.24 * Math.cos(2 * hpm * rad) + 0.32 * Math.cos((3 * hpm + 6) * rad) - 0.2 * Math.cos((4 * hpm - 63) * rad);
  const SL = 1 + (0.015 * (Lpm - 50) ** 2) / Math.sqrt(20 + (Lpm - 50) ** 2), SC = 1 + 0.045 * Cpm, SH = 1 + 0.015 * Cpm * T;
  const RT = -2 * Math.sqrt(Cpm ** 7 / (Cpm ** 7 + 25 ** 7)) * Math.sin(60 * Math.exp(-(((hpm - 275) / 25) ** 2)) * rad);
  return Math.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH));
}

/** An ICC v2 matrix/TRC display profile for `space`, built from the same numbers the truth is computed with. */
export function matrixProfile(space: MatrixSpace): Buffer {
  const s15 = (v: number) => { const b = Buffer.alloc(4); b.writeInt32BE(Math.round(v * 65536)); return b; };
  const xyz = (v: Xyz) => Buffer.concat([Buffer.from('XYZ \0\0\0\0', 'latin1'), ...v.map(s15)]);
  const ascii = Buffer.from(`${space.name}\0`, 'latin1');
  const count = Buffer.alloc(4); count.writeUInt32BE(ascii.length);
  const desc = Buffer.concat([Buffer.from('desc\0\0\0\0', 'latin1'), count, ascii, Buffer.alloc(4 + 4 + 2 + 1 + 67)]);
  const gamma = Buffer.alloc(2); gamma.writeUInt16BE(Math.round((space.gamma ?? 2.2) * 256));
  // sRGB's piecewise curve as a parametric curve (type 3: g, a, b, c, d); the others a pure power.
  const curv = space.gamma === null
    ? Buffer.concat([Buffer.from('para\0\0\0\0', 'latin1'), Buffer.from([0, 3, 0, 0]), ...[2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045].map(s15)])
    : Buffer.concat([Buffer.from('curv\0\0\0\0', 'latin1'), Buffer.from([0, 0, 0, 1]), gamma, Buffer.alloc(2)]);
  const tags: [string, Buffer][] = [['desc', desc], ['cprt', Buffer.from('text\0\0\0\0Public domain (test)\0', 'latin1')], ['wtpt', xyz(D50)],
    ['rXYZ', xyz(space.red)], ['gXYZ', xyz(space.green)], ['bXYZ', xyz(space.blue)], ['rTRC', curv], ['gTRC', curv], ['bTRC', curv]];
  const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
  let offset = 128 + 4 + tags.length * 12;
  const table = Buffer.alloc(4 + tags.length * 12);
  table.writeUInt32BE(tags.length);
  const bodies: Buffer[] = [];
  tags.forEach(([sig, body], i) => {
    table.write(sig, 4 + i * 12, 'latin1');
    table.writeUInt32BE(offset, 8 + i * 12);
    table.writeUInt32BE(body.length, 12 + i * 12);
    const padded = pad(body);
    bodies.push(padded);
    offset += padded.length;
  });
  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0);
  header.writeUInt32BE(0x02100000, 8);
  header.write('mntrRGB XYZ ', 12, 'latin1');
  header.writeUInt16BE(2026, 24); header.writeUInt16BE(1, 26); header.writeUInt16BE(1, 28);
  header.write('acsp', 36, 'latin1');
  [0.9642, 1, 0.8249].forEach((v, i) => s15(v).copy(header, 68 + i * 4));
  return Buffer.concat([header, table, ...bodies]);
}

/** The patch strip as raw pixels encoded in `space` (8- or 16-bit), its tagged PNG, and the truth per patch. */
export async function patchStrip(space: MatrixSpace, depth: 8 | 16): Promise<Buffer> {
  const width = PATCHES.length * PATCH_SIZE;
  const max = depth === 16 ? 65535 : 255;
  const pixels = depth === 16 ? new Uint16Array(width * PATCH_SIZE * 3) : new Uint8Array(width * PATCH_SIZE * 3);
  const encoded = PATCHES.map((p) => convert(p, space).map((v) => Math.round(v * max)));
  for (let y = 0; y < PATCH_SIZE; y++) for (let x = 0; x < width; x++) {
    const colour = encoded[Math.floor(x / PATCH_SIZE)]!;
    for (let c = 0; c < 3; c++) pixels[(y * width + x) * 3 + c] = colour[c]!;
  }
  const png = await sharp(pixels, { raw: { width, height: PATCH_SIZE, channels: 3 } }).toColourspace(depth === 16 ? 'rgb16' : 'srgb').png({ compressionLevel: 1 }).toBuffer();
  return insertIccChunk(png, matrixProfile(space));
}

/** The mean colour of each patch's centre of an image, as CIELAB (the image converted to sRGB through its profile). */
export async function patchLabs(image: Buffer | string): Promise<Lab[]> {
  const { data, info } = await sharp(image).resize(PATCHES.length * PATCH_SIZE, PATCH_SIZE, { fit: 'fill' }).withIccProfile('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return PATCHES.map((_, i) => {
    const sum: [number, number, number] = [0, 0, 0];
    let n = 0;
    for (let y = 8; y < 24; y++) for (let x = i * PATCH_SIZE + 8; x < i * PATCH_SIZE + 24; x++) {
      for (let c = 0; c < 3; c++) sum[c as 0 | 1 | 2] += data[(y * info.width + x) * info.channels + c]!;
      n++;
    }
    return labOf(SRGB, sum.map((v) => v / n / 255));
  });
}

export const truth = (): Lab[] => PATCHES.map((p) => labOf(SRGB, p.map((v) => v / 255)));

/** The worst patch's ΔE2000 between an image and the truth. */
export async function worstDeltaE(image: Buffer | string): Promise<number> {
  const expected = truth();
  return Math.max(...(await patchLabs(image)).map((lab, i) => deltaE2000(lab, expected[i]!)));
}
