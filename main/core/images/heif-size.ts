// The size a HEIF file says its picture is, read from the container before anything is decoded. The HEIC decoder
// (WASM) allocates the full canvas first: a 34 KB file declaring 12288×12288 held ≈ 1.75 GB and 11–28 s of CPU
// before the pixel check could run. Here only ISO-BMFF boxes are walked (bounded in depth, count and size); no
// pixel data is touched.
//
// What counts: every `ispe` (image spatial extents) property in meta/iprp/ipco — the primary item's, and every other
// item's, since a decoder may assemble the primary from them — and, for a primary that is a grid or an overlay, the
// canvas size its own descriptor declares (a grid's `ispe` may be small while its descriptor asks for a huge canvas).

export interface HeifSize {
  width: number;
  height: number;
}

interface Box {
  type: string;
  /** Start of the payload (after the header). */
  start: number;
  end: number;
}

const MAX_BOXES = 4096;

/** The boxes between `start` and `end`; stops at the first malformed one (what follows cannot be trusted). */
function boxes(file: Buffer, start: number, end: number): Box[] {
  const out: Box[] = [];
  let at = start;
  while (at + 8 <= end && out.length < MAX_BOXES) {
    let size = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) break;
      const big = file.readBigUInt64BE(at + 8);
      if (big > BigInt(end - at)) break;
      size = Number(big);
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) break;
    out.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return out;
}

const child = (file: Buffer, box: Box | undefined, type: string, skip = 0): Box | undefined =>
  box ? boxes(file, box.start + skip, box.end).find((b) => b.type === type) : undefined;

/** An unsigned big-endian integer of `bytes` (0, 2, 4 or 8) at `at`; null past `end` or beyond 2^53. */
function uint(file: Buffer, at: number, bytes: number, end: number): number | null {
  if (bytes === 0) return 0;
  if (at + bytes > end) return null;
  if (bytes === 2) return file.readUInt16BE(at);
  if (bytes === 4) return file.readUInt32BE(at);
  if (bytes === 8) {
    const value = file.readBigUInt64BE(at);
    return value > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(value);
  }
  return null;
}

/** The primary item's id from `pitm` (version 0: 16 bits, 1: 32 bits). */
function primaryItem(file: Buffer, meta: Box): number | null {
  const pitm = child(file, meta, 'pitm', 4);
  if (!pitm || pitm.start + 4 > pitm.end) return null;
  return uint(file, pitm.start + 4, file[pitm.start] === 0 ? 2 : 4, pitm.end);
}

/** The item type (`hvc1`, `grid`, `iovl` …) of `itemId` from `iinf`/`infe` (versions 2 and 3). */
function itemType(file: Buffer, meta: Box, itemId: number): string | null {
  const iinf = child(file, meta, 'iinf', 4);
  if (!iinf) return null;
  const countBytes = file[iinf.start] === 0 ? 2 : 4;
  for (const infe of boxes(file, iinf.start + 4 + countBytes, iinf.end)) {
    if (infe.type !== 'infe' || infe.start + 4 > infe.end) continue;
    const version = file[infe.start]!;
    if (version < 2) continue;
    const idBytes = version === 2 ? 2 : 4;
    const id = uint(file, infe.start + 4, idBytes, infe.end);
    const typeAt = infe.start + 4 + idBytes + 2; // after item_protection_index
    if (id === itemId && typeAt + 4 <= infe.end) return file.toString('latin1', typeAt, typeAt + 4);
  }
  return null;
}

/** The bytes of `itemId` when they are small and in the file or in `idat` (iloc construction methods 0 and 1). */
function itemData(file: Buffer, meta: Box, itemId: number, maxBytes: number): Buffer | null {
  const iloc = child(file, meta, 'iloc', 4);
  if (!iloc || iloc.start + 6 > iloc.end) return null;
  const version = file[iloc.start]!;
  let at = iloc.start + 4;
  const sizes = file.readUInt16BE(at);
  at += 2;
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 15;
  const baseSize = (sizes >> 4) & 15;
  const indexSize = version === 1 || version === 2 ? sizes & 15 : 0;
  const count = uint(file, at, version < 2 ? 2 : 4, iloc.end);
  if (count === null) return null;
  at += version < 2 ? 2 : 4;
  for (let n = 0; n < count && n < MAX_BOXES; n++) {
    const id = uint(file, at, version < 2 ? 2 : 4, iloc.end);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version === 1 || version === 2) {
      const word = uint(file, at, 2, iloc.end);
      if (word === null) return null;
      method = word & 15;
      at += 2;
    }
    at += 2; // data_reference_index
    const base = uint(file, at, baseSize, iloc.end);
    at += baseSize;
    const extents = uint(file, at, 2, iloc.end);
    at += 2;
    if (id === null || base === null || extents === null) return null;
    let first: { offset: number; length: number } | null = null;
    for (let e = 0; e < extents; e++) {
      at += indexSize;
      const offset = uint(file, at, offsetSize, iloc.end);
      at += offsetSize;
      const length = uint(file, at, lengthSize, iloc.end);
      at += lengthSize;
      if (offset === null || length === null) return null;
      first ??= { offset, length };
    }
    if (id !== itemId || !first) continue;
    const region = method === 1 ? child(file, meta, 'idat', 4) : method === 0 ? { start: 0, end: file.length } : undefined;
    if (!region) return null;
    const from = region.start + base + first.offset;
    const length = first.length === 0 ? region.end - from : first.length;
    if (from < region.start || length > maxBytes || from + length > region.end) return null;
    return file.subarray(from, from + length);
  }
  return null;
}

/** The canvas a grid (`grid`) or overlay (`iovl`) descriptor declares: 16-bit or 32-bit fields by flag bit 0. */
function derivedCanvas(data: Buffer, type: string): HeifSize | null {
  if (data.length < 2) return null;
  const wide = (data[1]! & 1) === 1;
  const at = type === 'grid' ? 4 : 2 + 8; // grid: rows, columns; iovl: four 16-bit fill values
  const bytes = wide ? 4 : 2;
  const width = uint(data, at, bytes, data.length);
  const height = uint(data, at + bytes, bytes, data.length);
  return width === null || height === null ? null : { width, height };
}

/**
 * The largest canvas a HEIF file declares (see the note at the top), or null when it declares none a decoder could
 * use — no `meta`, no `ispe` for its primary item — which is refused like any unreadable file.
 */
export function heifDeclaredSize(file: Buffer): HeifSize | null {
  const top = boxes(file, 0, file.length);
  const meta = top.find((b) => b.type === 'meta');
  if (!meta) return null;
  const ipco = child(file, child(file, meta, 'iprp', 4), 'ipco');
  if (!ipco) return null;
  const properties = boxes(file, ipco.start, ipco.end);
  let largest: HeifSize | null = null;
  const consider = (size: HeifSize) => {
    if (!largest || size.width * size.height > largest.width * largest.height) largest = size;
  };
  for (const property of properties) {
    if (property.type !== 'ispe' || property.start + 12 > property.end) continue;
    consider({ width: file.readUInt32BE(property.start + 4), height: file.readUInt32BE(property.start + 8) });
  }
  if (!largest) return null;
  const primary = primaryItem(file, meta);
  if (primary === null) return null;
  const type = itemType(file, meta, primary);
  if (type === 'grid' || type === 'iovl') {
    const data = itemData(file, meta, primary, 64);
    const canvas = data && derivedCanvas(data, type);
    if (!canvas) return null;
    consider(canvas);
  }
  return largest;
}
