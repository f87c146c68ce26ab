import { stat } from 'node:fs/promises';

/** Runs one ExifTool command (the engine's shared `-stay_open` ExifTool) and gives its standard output. */
export type ExifToolCommand = (args: readonly string[]) => Promise<string>;

// When and with what a photo was taken, read once per source file: the naming tokens {capture_date},
// {capture_time} and {camera}, and the moment a result's modification time is set to (so date-sorted folders keep
// the originals' order). DateTimeOriginal is the camera's wall clock; OffsetTimeOriginal places it in time. Without
// an offset it is read as this computer's local time; without DateTimeOriginal, CreateDate; without either the file's
// own mtime stands in.

export interface CaptureInfo {
  /** YYYY-MM-DD on the camera's clock (or the file's local mtime). */
  captureDate: string;
  /** HHmmss, likewise. */
  captureTime: string;
  /** The camera model, safe in a file name; null when the file does not say. */
  camera: string | null;
  /** The capture instant (epoch ms): the result's mtime. */
  capturedAtMs: number;
  /** Where capturedAtMs came from. */
  from: 'exif' | 'mtime';
  /** ExifTool's complaint about the file's metadata (damaged EXIF, a truncated file), if any: never a [minor] notice. */
  warning: string | null;
  /** An ExifTool `[minor]` notice (prefix removed), which ExifTool works around: the metadata is not damaged. */
  minorWarning?: string | null;
  /** The image's long edge as ExifTool reads it (for a RAW, the sensor's full size, not the preview's); null if unknown. */
  longEdge?: number | null;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `Canon EOS R5` → `Canon-EOS-R5`: letters, digits, `-` and `_` only, at most 64 characters. */
export function sanitiseCamera(model: string): string | null {
  const clean = model.normalize('NFC').trim().replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, 64);
  return clean === '' ? null : clean;
}

/** `2024:06:01 14:22:33` (+ `+02:00`) → its parts and instant; null when it is not a real date. */
export function parseExifDate(value: unknown, offset: unknown): { date: string; time: string; ms: number } | null {
  const match = typeof value === 'string' ? /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value) : null;
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const off = typeof offset === 'string' ? /^([+-])(\d{2}):?(\d{2})$/.exec(offset.trim()) : null;
  const ms = off
    ? Date.UTC(y, mo - 1, d, h, mi, s) - (off[1] === '-' ? -1 : 1) * (Number(off[2]) * 60 + Number(off[3])) * 60_000
    : new Date(y, mo - 1, d, h, mi, s).getTime();
  return Number.isFinite(ms) ? { date: `${y}-${pad(mo)}-${pad(d)}`, time: `${pad(h)}${pad(mi)}${pad(s)}`, ms } : null;
}

export async function readCaptureInfo(run: ExifToolCommand, path: string): Promise<CaptureInfo> {
  const info = await stat(path);
  let tags: Record<string, unknown> = {};
  try {
    const stdout = await run([
      '-charset', 'filename=utf8', '-j', '-DateTimeOriginal', '-OffsetTimeOriginal', '-CreateDate', '-OffsetTimeDigitized', '-OffsetTime', '-Model', '-ImageSize', '-Warning', path,
    ]);
    tags = (JSON.parse(stdout) as Record<string, unknown>[])[0] ?? {};
  } catch (error) {
    // unreadable metadata: the file's own time and no camera, like a photo without EXIF
    tags = { Warning: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  }
  // By severity: ExifTool's `[minor]` notices (an odd MakerNote directory, a padded IFD) are what it reads past on
  // sound files — a sound DNG was reported "damaged" for one. Only the others say the metadata is damaged.
  const said = typeof tags.Warning === 'string' ? tags.Warning : null;
  const minor = said !== null && said.startsWith('[minor] ');
  const warning = said !== null && !minor ? said : null;
  const minorWarning = minor ? said.slice('[minor] '.length) : null;
  const camera = typeof tags.Model === 'string' || typeof tags.Model === 'number' ? sanitiseCamera(String(tags.Model)) : null;
  const size = /^(\d+)\D+(\d+)$/.exec(String(tags.ImageSize ?? ''));
  const longEdge = size ? Math.max(Number(size[1]), Number(size[2])) || null : null;
  const exif = parseExifDate(tags.DateTimeOriginal, tags.OffsetTimeOriginal ?? tags.OffsetTime)
    ?? parseExifDate(tags.CreateDate, tags.OffsetTimeDigitized ?? tags.OffsetTime);
  if (exif) return { captureDate: exif.date, captureTime: exif.time, camera, capturedAtMs: exif.ms, from: 'exif', warning, minorWarning, longEdge };
  const m = info.mtime;
  return {
    captureDate: `${m.getFullYear()}-${pad(m.getMonth() + 1)}-${pad(m.getDate())}`,
    captureTime: `${pad(m.getHours())}${pad(m.getMinutes())}${pad(m.getSeconds())}`,
    camera, capturedAtMs: info.mtimeMs, from: 'mtime', warning, minorWarning, longEdge,
  };
}

/**
 * Capture info per source, read once: keyed by path, size and mtime so an edited file is read again. Bounded (a
 * 100,000-photo batch keeps the most recent 20,000).
 */
export class CaptureCache {
  private readonly entries = new Map<string, Promise<CaptureInfo | null>>();

  constructor(private readonly run: ExifToolCommand, private readonly max = 20_000) {}

  /** The source's capture info; null when it is not a readable local file. */
  async get(path: string): Promise<CaptureInfo | null> {
    if (/^https?:\/\//i.test(path)) return null;
    const info = await stat(path).catch(() => null);
    if (!info) return null;
    const key = `${path}\n${info.size}\n${info.mtimeMs}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = readCaptureInfo(this.run, path).catch(() => null);
      this.entries.set(key, entry);
      while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    return entry;
  }
}

/** The naming tokens of a source's capture info (absent values fall back in the namer). */
export function captureTokens(info: CaptureInfo | null): Record<string, string | undefined> {
  if (!info) return {};
  return { capture_date: info.captureDate, capture_time: info.captureTime, ...(info.camera ? { camera: info.camera } : {}) };
}
