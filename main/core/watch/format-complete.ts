import { open, type FileHandle } from 'node:fs/promises';

// Proof from a file's own structure that its last byte has been written, so a hot folder need not wait out the
// full write-finish window (docs/hot-folders.md, "Write finished"). Only a positive answer counts: anything this
// reader does not fully understand (other formats, trailers after the image, motion photos, odd or damaged
// structure) answers false and the caller keeps the conservative wait.

const WINDOW = 128 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** IEND is the last chunk of every PNG: zero length, type, fixed CRC. */
const PNG_IEND_CHUNK = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const XMP_HEADER = 'http://ns.adobe.com/xap/1.0/\0';
/** XMP that announces data appended after the JPEG (Google/Samsung motion photos, container images). */
const APPENDED_DATA_HINTS = ['MicroVideo', 'MotionPhoto', 'Container:Directory', 'GContainer', 'hdrgm:'];

/** Reads a file through one reused window: the JPEG walk touches every byte once, in order. */
class Bytes {
  private readonly buffer: Buffer;
  private start = 0;
  private length = 0;

  constructor(private readonly handle: FileHandle, readonly size: number) {
    // Only as large as the file: a burst of small files must not allocate a full window each.
    this.buffer = Buffer.allocUnsafe(Math.min(WINDOW, size));
  }

  /** True once bytes [pos, pos + need) are in the window (need ≤ its size); false past the end of the file. */
  private async ensure(pos: number, need: number): Promise<boolean> {
    if (pos + need > this.size) return false;
    if (pos >= this.start && pos + need <= this.start + this.length) return true;
    const { bytesRead } = await this.handle.read(this.buffer, 0, Math.min(WINDOW, this.size - pos), pos);
    this.start = pos;
    this.length = bytesRead;
    return need <= bytesRead;
  }

  async byte(pos: number): Promise<number | null> {
    return (await this.ensure(pos, 1)) ? this.buffer[pos - this.start]! : null;
  }

  async slice(pos: number, length: number): Promise<Buffer | null> {
    if (!(await this.ensure(pos, length))) return null;
    return Buffer.from(this.buffer.subarray(pos - this.start, pos - this.start + length));
  }

  /** Offset of the next 0xFF at or after `pos`, or null. */
  async nextFF(pos: number): Promise<number | null> {
    while (await this.ensure(pos, 1)) {
      const found = this.buffer.subarray(0, this.length).indexOf(0xff, pos - this.start);
      if (found >= 0) return this.start + found;
      pos = this.start + this.length;
    }
    return null;
  }
}

/** The MP Index (CIPA DC-007) of an APP2 "MPF" segment: where the images stored after the primary one end. */
function mpfEnd(payload: Buffer, tiffStart: number): number | null {
  const little = payload.toString('latin1', 0, 2) === 'II';
  if (!little && payload.toString('latin1', 0, 2) !== 'MM') return null;
  const u16 = (o: number) => (little ? payload.readUInt16LE(o) : payload.readUInt16BE(o));
  const u32 = (o: number) => (little ? payload.readUInt32LE(o) : payload.readUInt32BE(o));
  if (payload.length < 8) return null;
  const ifd = u32(4);
  if (ifd + 2 > payload.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > payload.length) return null;
    if (u16(entry) !== 0xb002) continue;
    const bytes = u32(entry + 4);
    const at = u32(entry + 8);
    if (bytes % 16 !== 0 || at + bytes > payload.length) return null;
    let end = 0;
    for (let e = at; e < at + bytes; e += 16) {
      const size = u32(e + 4);
      const offset = u32(e + 8);
      // Offset 0 is the primary image (this file's start); the others count from the MP header.
      if (offset !== 0) end = Math.max(end, tiffStart + offset + size);
    }
    return end;
  }
  return 0;
}

/**
 * True when a JPEG's markers, walked from SOI through every segment and scan, reach EOI, anything the file says is
 * stored after it (MPF images) is there, and nothing but padding follows. A copy cut anywhere — even right after
 * an embedded thumbnail's own EOI, which sits inside APP1 and is skipped by its length — reads false.
 */
async function jpegComplete(bytes: Bytes): Promise<boolean> {
  let pos = 2;
  let requiredEnd = 0;
  for (;;) {
    if ((await bytes.byte(pos)) !== 0xff) return false;
    let marker = await bytes.byte(pos + 1);
    while (marker === 0xff) marker = await bytes.byte(++pos + 1);
    if (marker === null) return false;
    if (marker === 0xd9) return tailIsPadding(bytes, Math.max(pos + 2, requiredEnd));
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2;
      continue;
    }
    const head = await bytes.slice(pos + 2, 2);
    if (!head) return false;
    const length = head.readUInt16BE(0);
    if (length < 2 || pos + 2 + length > bytes.size) return false;
    if (marker === 0xe1 || marker === 0xe2) {
      const payload = await bytes.slice(pos + 4, length - 2);
      if (!payload) return false;
      if (marker === 0xe2 && payload.toString('latin1', 0, 4) === 'MPF\0') {
        const end = mpfEnd(payload.subarray(4), pos + 8);
        if (end === null) return false;
        requiredEnd = Math.max(requiredEnd, end);
      }
      if (marker === 0xe1 && payload.toString('latin1', 0, XMP_HEADER.length) === XMP_HEADER) {
        const xmp = payload.toString('latin1', XMP_HEADER.length);
        if (APPENDED_DATA_HINTS.some((hint) => xmp.includes(hint))) return false;
      }
    }
    pos += 2 + length;
    if (marker !== 0xda) continue;
    // Entropy-coded data: 0xFF is followed by 0x00 (stuffing), a restart marker, fill bytes, or the next marker.
    for (;;) {
      const ff = await bytes.nextFF(pos);
      if (ff === null) return false;
      const next = await bytes.byte(ff + 1);
      if (next === null) return false;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
        pos = ff + 2;
        continue;
      }
      if (next === 0xff) {
        pos = ff + 1;
        continue;
      }
      pos = ff;
      break;
    }
  }
}

/** After the last expected byte only zero or 0xFF padding (some writers pad to a block size), and not much of it. */
async function tailIsPadding(bytes: Bytes, end: number): Promise<boolean> {
  if (end > bytes.size) return false;
  const rest = bytes.size - end;
  if (rest === 0) return true;
  if (rest > 4096) return false;
  const tail = await bytes.slice(end, rest);
  return tail !== null && tail.every((b) => b === 0 || b === 0xff);
}

function hasSequence(buffer: Uint8Array, sequence: readonly number[]): boolean {
  outer: for (let i = buffer.length - sequence.length; i >= 0; i--) {
    for (let j = 0; j < sequence.length; j++) if (buffer[i + j] !== sequence[j]) continue outer;
    return true;
  }
  return false;
}

export interface FileEnd {
  /**
   * The file's structure proves it whole: a JPEG walked marker by marker to its EOI (with any MPF images after it
   * present), or a PNG that ends in its IEND chunk (nothing may follow IEND, and the 12 fixed bytes cannot end a
   * cut-off copy except by a 2⁻⁹⁶ coincidence). Only asked for when `prove` is set; false for everything else.
   */
  proven: boolean;
  /**
   * False when a JPEG or PNG visibly lacks its end (no EOI / IEND in its last bytes): a copy that stalled. Other
   * formats, and files that cannot be read, count as complete — the engine reports what is really wrong with them.
   * JPEG writers may pad after EOI, so the marker is searched in the last kilobyte.
   */
  looksComplete: boolean;
}

/** Both verdicts from one open of the file. */
export async function fileEnd(path: string, prove: boolean): Promise<FileEnd> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const size = (await handle.stat()).size;
    if (size < 16) return { proven: false, looksComplete: true };
    const bytes = new Bytes(handle, size);
    const head = await bytes.slice(0, 8);
    const tail = await bytes.slice(size - Math.min(size, 1024), Math.min(size, 1024));
    if (!head || !tail) return { proven: false, looksComplete: true };
    if (head[0] === 0xff && head[1] === 0xd8) {
      const looksComplete = hasSequence(tail, [0xff, 0xd9]);
      return { looksComplete, proven: looksComplete && prove && (await jpegComplete(bytes)) };
    }
    if (head.subarray(0, 4).equals(PNG_SIGNATURE.subarray(0, 4))) {
      const looksComplete = hasSequence(tail.subarray(Math.max(0, tail.length - 64)), [...PNG_IEND_CHUNK.subarray(4)]);
      const proven = prove && head.equals(PNG_SIGNATURE) && tail.subarray(tail.length - PNG_IEND_CHUNK.length).equals(PNG_IEND_CHUNK);
      return { looksComplete, proven };
    }
    return { proven: false, looksComplete: true };
  } catch {
    return { proven: false, looksComplete: true };
  } finally {
    await handle?.close();
  }
}

/** True only when the file's structure proves it is whole (`FileEnd.proven`). */
export async function provablyComplete(path: string): Promise<boolean> {
  return (await fileEnd(path, true)).proven;
}
