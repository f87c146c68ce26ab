import { stat } from 'node:fs/promises';
import { CAPTURE_DATE_TAGS, momentOf, parseDateValue, parseOffset, pickCaptureMoment, type GroupedTags } from './capture-date';

/** Runs one ExifTool command (the engine's shared `-stay_open` ExifTool) and gives its standard output. */
export type ExifToolCommand = (args: readonly string[]) => Promise<string>;

// When and with what a photo was taken, read once per source file: the naming tokens {capture_date},
// {capture_time} and {camera}, and the moment a result's modification time is set to (so date-sorted folders keep
// the originals' order). DateTimeOriginal is the camera's wall clock; its offset places it in time, taken wherever it
// is written (the value's own, as XMP, IPTC and FLIR write it, then EXIF's OffsetTimeOriginal/OffsetTime:
// capture-date.ts). Without an offset it is read as this computer's local time; without DateTimeOriginal (or the
// XMP/IPTC capture date), CreateDate; without any the file's own mtime stands in.

export interface CaptureInfo {
  /** YYYY-MM-DD on the camera's clock (or the file's local mtime). */
  captureDate: string;
  /** HHmmss, likewise. */
  captureTime: string;
  /** The camera model, safe in a file name; null when the file does not say. */
  camera: string | null;
  /** The capture instant (epoch ms): the result's mtime. */
  capturedAtMs: number;
  /** The UTC offset the capture date was read with (`-06:00`); null when read as this computer's local time. */
  captureOffset?: string | null;
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

/**
 * `2024:06:01 14:22:33` (+ `+02:00`) → its parts and instant; null when it is not a real date. An offset written in
 * the value itself (`2024:06:01 14:22:33-06:00`) wins over the one given.
 */
export function parseExifDate(value: unknown, offset: unknown): { date: string; time: string; ms: number } | null {
  const at = parseDateValue(value);
  return at ? momentOf(at, parseOffset(offset)) : null;
}

/** The value of a tag from ExifTool's `-G1` output: EXIF's (or any other group's) before XMP's, as ExifTool would pick. */
function tagValue(tags: GroupedTags, name: string): unknown {
  const found = Object.entries(tags).filter(([key]) => key.slice(key.lastIndexOf(':') + 1) === name);
  return (found.find(([key]) => !key.startsWith('XMP')) ?? found[0])?.[1];
}

export async function readCaptureInfo(run: ExifToolCommand, path: string): Promise<CaptureInfo> {
  const info = await stat(path);
  let tags: GroupedTags = {};
  try {
    // -G1 -a: every group's date (EXIF's, XMP's, IPTC's, FLIR's) under its own key; ExifTool's single pick per name
    // would hide the XMP value that carries the offset behind EXIF's that does not.
    const stdout = await run([
      '-charset', 'filename=utf8', '-j', '-G1', '-a', ...CAPTURE_DATE_TAGS.map((t) => `-${t}`), '-Model', '-ImageSize', '-Warning', path,
    ]);
    tags = (JSON.parse(stdout) as GroupedTags[])[0] ?? {};
  } catch (error) {
    // unreadable metadata: the file's own time and no camera, like a photo without EXIF
    tags = { 'ExifTool:Warning': error instanceof Error ? error.message.split('\n')[0] : String(error) };
  }
  // By severity: ExifTool's `[minor]` notices (an odd MakerNote directory, a padded IFD) are what it reads past on
  // sound files — a sound DNG was reported "damaged" for one. Only the others say the metadata is damaged.
  const warned = tagValue(tags, 'Warning');
  const said = typeof warned === 'string' ? warned : null;
  const minor = said !== null && said.startsWith('[minor] ');
  const warning = said !== null && !minor ? said : null;
  const minorWarning = minor ? said.slice('[minor] '.length) : null;
  const model = tagValue(tags, 'Model');
  const camera = typeof model === 'string' || typeof model === 'number' ? sanitiseCamera(String(model)) : null;
  const size = /^(\d+)\D+(\d+)$/.exec(String(tagValue(tags, 'ImageSize') ?? ''));
  const longEdge = size ? Math.max(Number(size[1]), Number(size[2])) || null : null;
  const exif = pickCaptureMoment(tags);
  if (exif) {
    return {
      captureDate: exif.date, captureTime: exif.time, camera, capturedAtMs: exif.ms, captureOffset: exif.offset, from: 'exif',
      warning, minorWarning, longEdge,
    };
  }
  const m = info.mtime;
  return {
    captureDate: `${m.getFullYear()}-${pad(m.getMonth() + 1)}-${pad(m.getDate())}`,
    captureTime: `${pad(m.getHours())}${pad(m.getMinutes())}${pad(m.getSeconds())}`,
    camera, capturedAtMs: info.mtimeMs, captureOffset: null, from: 'mtime', warning, minorWarning, longEdge,
  };
}

/**
 * Capture info per source, read once: keyed by path, size and mtime so an edited file is read again. A photo's reads
 * come within seconds of each other (its name, then its result's metadata and dates, for each deliverable), so the
 * most recent 2,000 are kept: ≈ 0.8 KB each, where 20,000 made a 100k batch's memory climb 16 MB before it levelled.
 * One asked again after that is read again (one ExifTool command), never wrong.
 */
export class CaptureCache {
  private readonly entries = new Map<string, Promise<CaptureInfo | null>>();

  constructor(private readonly run: ExifToolCommand, private readonly max = 2_000) {}

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
