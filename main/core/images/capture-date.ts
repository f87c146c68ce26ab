// The capture moment of a photo, from wherever its metadata writes it. Cameras keep the wall clock in EXIF
// DateTimeOriginal and (since EXIF 2.31) its offset from UTC in OffsetTimeOriginal; Lightroom, Bridge and Photoshop
// write the same moment into XMP (`exif:DateTimeOriginal`, `photoshop:DateCreated`, `xmp:CreateDate`) and IPTC
// (DateCreated + TimeCreated) with the offset as part of the value (`2024-05-01T10:00:00-06:00`, `10:00:00-06:00`);
// FLIR thermal cameras record it in their own APP1 segment, offset included. An offset read as this computer's local
// time puts a result's mtime hours off (6 h for a -06:00 shoot read in UTC), so the offset is taken wherever it is
// written: the value's own first, then EXIF's OffsetTime* tags, then any other capture value with the same wall
// clock that carries one; only then is the wall clock read as local time.
//
// The input is ExifTool's `-j -G1` output: every group's value under `Group:Tag` (ExifTool's own pick of one value
// per tag name prefers EXIF and hides the XMP value that has the offset).

export type GroupedTags = Record<string, unknown>;

/** A capture moment as written: the wall clock (the camera's clock) and, when written, its offset in minutes. */
export interface WrittenDate {
  y: number; mo: number; d: number; h: number; mi: number; s: number;
  offsetMin: number | null;
}

export interface CaptureMoment {
  /** YYYY-MM-DD on the clock it was written with. */
  date: string;
  /** HHmmss, likewise. */
  time: string;
  /** The instant (epoch ms). */
  ms: number;
  /** The offset used (`+HH:MM`); null when the wall clock was read as this computer's local time. */
  offset: string | null;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `+02:00`, `-0600`, `+05`, `Z` → minutes east of UTC; null for blanks (EXIF's "unknown" is `   :  `) and junk. */
export function parseOffset(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(text);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? 0);
  if (hours > 14 || minutes > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * ExifTool's date/time value (`2024:05:01 10:00:00`, `…10:00:00.436-04:00`, `…10:00Z`, or XMP's `T` form) → its
 * parts; null when it is not a real date and time. Anything after the time that is not an offset is ignored.
 */
export function parseDateValue(value: unknown): WrittenDate | null {
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?(.*)$/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const s = Number(m[6] ?? 0);
  if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  return { y, mo, d, h, mi, s, offsetMin: parseOffset(m[7]) };
}

const formatOffset = (min: number) => `${min < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(min) / 60))}:${pad(Math.abs(min) % 60)}`;

/** The moment of a written date: with `offsetMin` (the value's own, else the one given), else as local time. */
export function momentOf(at: WrittenDate, fallbackOffsetMin: number | null): CaptureMoment | null {
  const offsetMin = at.offsetMin ?? fallbackOffsetMin;
  const ms = offsetMin !== null
    ? Date.UTC(at.y, at.mo - 1, at.d, at.h, at.mi, at.s) - offsetMin * 60_000
    : new Date(at.y, at.mo - 1, at.d, at.h, at.mi, at.s).getTime();
  if (!Number.isFinite(ms)) return null;
  return {
    date: `${at.y}-${pad(at.mo)}-${pad(at.d)}`, time: `${pad(at.h)}${pad(at.mi)}${pad(at.s)}`, ms,
    offset: offsetMin === null ? null : formatOffset(offsetMin),
  };
}

/** The tags capture.ts asks ExifTool for (every group's, with -G1). */
export const CAPTURE_DATE_TAGS = [
  'DateTimeOriginal', 'CreateDate', 'DateCreated', 'TimeCreated', 'DigitalCreationDate', 'DigitalCreationTime',
  'DateTimeDigitized', 'OffsetTimeOriginal', 'OffsetTimeDigitized', 'OffsetTime',
] as const;

type Kind = 'original' | 'digitized';
interface Candidate { at: WrittenDate; kind: Kind }

const isExif = (group: string) => /^(IFD\d+|ExifIFD|SubIFD\d*)$/.test(group);
const isXmp = (group: string) => group.startsWith('XMP');

/** Every `Group:Name` entry of a tag name, in ExifTool's output order. */
function entries(tags: GroupedTags, name: string): { group: string; value: unknown }[] {
  const out: { group: string; value: unknown }[] = [];
  for (const [key, value] of Object.entries(tags)) {
    const colon = key.lastIndexOf(':');
    if (colon > 0 && key.slice(colon + 1) === name) out.push({ group: key.slice(0, colon), value });
  }
  return out;
}

const valuesOf = (tags: GroupedTags, name: string, where: (group: string) => boolean) =>
  entries(tags, name).filter((e) => where(e.group)).map((e) => e.value);

/** IIM keeps date and time apart (`2024:05:01` + `10:00:00-06:00`). */
const iptcPair = (tags: GroupedTags, date: string, time: string): unknown[] => {
  const d = tags[`IPTC:${date}`];
  const t = tags[`IPTC:${time}`];
  return typeof d === 'string' && typeof t === 'string' ? [`${d} ${t}`] : [];
};

/**
 * The capture values in order of trust: what the camera wrote in EXIF, the capture date as catalogues write it (XMP,
 * IPTC), another group's DateTimeOriginal (FLIR, a RAW container's own), then the digitized dates likewise.
 */
function candidates(tags: GroupedTags): Candidate[] {
  const other = (g: string) => !isExif(g) && !isXmp(g) && g !== 'IPTC';
  const ordered: [Kind, unknown[]][] = [
    ['original', valuesOf(tags, 'DateTimeOriginal', isExif)],
    ['original', valuesOf(tags, 'DateTimeOriginal', (g) => g === 'XMP-exif')],
    ['original', valuesOf(tags, 'DateCreated', (g) => g === 'XMP-photoshop')],
    ['original', iptcPair(tags, 'DateCreated', 'TimeCreated')],
    ['original', valuesOf(tags, 'DateTimeOriginal', other)],
    ['digitized', valuesOf(tags, 'CreateDate', isExif)],
    ['digitized', [...valuesOf(tags, 'DateTimeDigitized', (g) => g === 'XMP-exif'), ...valuesOf(tags, 'CreateDate', (g) => g === 'XMP-xmp')]],
    ['digitized', iptcPair(tags, 'DigitalCreationDate', 'DigitalCreationTime')],
    ['digitized', valuesOf(tags, 'CreateDate', other)],
  ];
  const out: Candidate[] = [];
  for (const [kind, values] of ordered) {
    for (const value of values) {
      const at = parseDateValue(value);
      if (at) out.push({ at, kind });
    }
  }
  return out;
}

/** EXIF's offset tags for a kind of date: its own, then OffsetTime, then the other one (cameras write all three alike). */
function exifOffset(tags: GroupedTags, kind: Kind): number | null {
  const order = kind === 'original'
    ? ['OffsetTimeOriginal', 'OffsetTime', 'OffsetTimeDigitized']
    : ['OffsetTimeDigitized', 'OffsetTime', 'OffsetTimeOriginal'];
  for (const name of order) {
    // EXIF's own first; an XMP copy of the tag (some tools write one) after it
    const found = [...valuesOf(tags, name, isExif), ...valuesOf(tags, name, (g) => !isExif(g))].map(parseOffset).find((o) => o !== null);
    if (found !== undefined) return found;
  }
  return null;
}

const sameClock = (a: WrittenDate, b: WrittenDate) =>
  a.y === b.y && a.mo === b.mo && a.d === b.d && a.h === b.h && a.mi === b.mi && a.s === b.s;

/** The photo's capture moment from ExifTool's `-G1` tags; null when no capture date is written. */
export function pickCaptureMoment(tags: GroupedTags): CaptureMoment | null {
  const all = candidates(tags);
  const chosen = all[0];
  if (!chosen) return null;
  const offset = chosen.at.offsetMin
    ?? exifOffset(tags, chosen.kind)
    ?? all.find((c) => c.at.offsetMin !== null && sameClock(c.at, chosen.at))?.at.offsetMin
    ?? null;
  return momentOf(chosen.at, offset);
}
