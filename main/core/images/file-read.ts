import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import sharp from 'sharp';

// One pass over a file for planning: open once, fstat the open file (its identity), read it, hash the bytes and take
// the long edge from the header already in hand. Before, each fact was its own trip — a stat per fact, a stream with
// a 1 MB buffer per file (for a 40 KB photo: the garbage collector was a quarter of a 10k estimate) and sharp opening
// the file again for its header — 9.5× what a bare stat/read/hash/metadata loop takes.

/** Files up to this size are read whole (one read); larger ones are hashed in chunks of this size. */
const WHOLE_READ_BYTES = 4 << 20;
/** A JPEG's frame header sits after its EXIF (≤ 64 KB) and colour profile: this much of a large file is searched. */
const HEADER_BYTES = 256 << 10;

export interface FileIdentity {
  /** Device, inode, size, modification and change time (ns): what "unchanged" means (file-facts.ts). */
  identity: string;
  /** The later of mtime and ctime, ms. */
  changedMs: number;
  size: number;
  /**
   * ctime differs from mtime: the change time is surely the volume's own, which no tool can set back. FAT/exFAT (SD
   * cards, USB drives) report the modification time as ctime, which a tool that keeps a photo's date restores: there
   * the identity misses a same-size edit (file-facts.ts then asks what the volume is).
   */
  ctimeDistinct: boolean;
}

export interface ReadFacts extends FileIdentity {
  hash: string;
  /** The long edge in pixels from the header; 0 when it cannot be read. */
  longEdge: number;
}

export function identityOfStats(s: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): FileIdentity {
  const changedNs = s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs;
  return {
    identity: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, changedMs: Number(changedNs / 1_000_000n), size: Number(s.size),
    ctimeDistinct: s.ctimeNs !== s.mtimeNs && s.ctimeNs > 0n,
  };
}

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** A JPEG's or PNG's pixel size from its first bytes, in plain JS (no thread-pool trip); null for anything else. */
export function headerSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR') {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) { at += 1; continue; } // fill byte
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) { at += 2; continue; } // no length
    const length = bytes.readUInt16BE(at + 2);
    if (SOF.has(marker)) {
      if (at + 9 > bytes.length) return null;
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (marker === 0xda || length < 2) return null; // scan data before a frame header: not a JPEG we can read
    at += 2 + length;
  }
  return null;
}

async function edgeOf(bytesOrPath: Buffer | string, head: Buffer): Promise<number> {
  const size = headerSize(head);
  if (size) return Math.max(size.width, size.height);
  try {
    const { width, height } = await sharp(bytesOrPath).metadata();
    return Math.max(width ?? 0, height ?? 0);
  } catch {
    return 0; // HEIC or unreadable: the size sentence simply leaves it out
  }
}

/** Identity, SHA-256 and long edge of one file, in one open. Rejects (with the system's code) when it cannot be read. */
export async function readFileFacts(path: string): Promise<ReadFacts> {
  const handle = await open(path, 'r');
  try {
    const identity = identityOfStats(await handle.stat({ bigint: true }));
    const hash = createHash('sha256');
    if (identity.size <= WHOLE_READ_BYTES) {
      const bytes = Buffer.allocUnsafe(identity.size);
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
        if (bytesRead === 0) break; // shrank while read: hash what is there (its identity changes, so it is not kept)
        filled += bytesRead;
      }
      const read = bytes.subarray(0, filled);
      hash.update(read);
      return { ...identity, hash: hash.digest('hex'), longEdge: await edgeOf(read, read) };
    }
    const chunk = Buffer.allocUnsafe(WHOLE_READ_BYTES);
    let head: Buffer | null = null;
    for (let position = 0; ;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      if (!head) head = Buffer.from(chunk.subarray(0, Math.min(bytesRead, HEADER_BYTES)));
      hash.update(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
    return { ...identity, hash: hash.digest('hex'), longEdge: await edgeOf(path, head ?? Buffer.alloc(0)) };
  } finally {
    await handle.close();
  }
}
