import { open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ExifToolCommand } from './capture';
import { extractPreviews, largestPreview, measure, PREVIEW_TAGS, previewRefusal, type PreviewSize } from './raw-preview';

// Whether a RAW will be refused (no preview large enough, cannot be read, too large) — known while planning, so the
// estimate, the naming preview and the budget count it as refused (free) instead of priced. The encoder's own rule
// (raw-preview.ts previewRefusal) decides on the same sizes; what differs is how they are read. The encoder extracts
// every preview; planning reads only where ExifTool says each preview lies and the few header bytes of its JPEG
// (no preview extracted, no pixel decoded), for many files per ExifTool command. A preview ExifTool gives no offset
// for (CR3, RAF, RW2) or whose bytes there do not read as a JPEG frame is extracted and measured as the encoder would.

/** Files per ExifTool command: one command's start-up is shared, and a save waiting on the one process waits little. */
const FILES_PER_COMMAND = 32;
/** How long a command waits for more asks to join it: short beside one ExifTool command (tens of ms). */
const GATHER_MS = 30;

// ImageSize too: the sensor's size is the estimate's "originals up to N px" (one command here, not one per RAW more).
const ARGS = ['-charset', 'filename=utf8', '-j', '-n', '-a', '-G1', '-Warning', '-Error', '-ImageSize', ...PREVIEW_TAGS.flatMap((t) => [`-${t}`, `-${t}Start`, `-${t}Length`])];

/** SOF markers libjpeg reads the frame size from (baseline, extended, progressive); any other is measured by sharp. */
const FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2]);

async function bytesAt(file: FileHandle, position: number, length: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return bytesRead === length ? buffer : null;
}

/**
 * The frame size of the JPEG at `start` (`length` bytes) of the file, from its segment headers; null when it is not
 * a JPEG whose frame is found that way (the caller then measures it as the encoder does).
 */
export async function jpegFrameAt(file: FileHandle, start: number, length: number): Promise<PreviewSize | null> {
  const end = start + length;
  const soi = await bytesAt(file, start, 2);
  if (!soi || soi[0] !== 0xff || soi[1] !== 0xd8) return null;
  // Segments before the frame: APPn (EXIF, ICC, MPF), COM, DQT, DHT, DRI — each a marker and its length.
  for (let at = start + 2; at + 4 <= end;) {
    const head = await bytesAt(file, at, 4);
    if (!head || head[0] !== 0xff) return null;
    const marker = head[1]!;
    if (FRAME_MARKERS.has(marker)) {
      const frame = await bytesAt(file, at + 4, 5);
      if (!frame) return null;
      const height = frame.readUInt16BE(1);
      const width = frame.readUInt16BE(3);
      return width > 0 && height > 0 ? { pixels: width * height, edge: Math.max(width, height) } : null;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return null; // another frame kind
    if (marker === 0xda || marker === 0xd9) return null; // scan data (or the end) before any frame
    at += 2 + head.readUInt16BE(2);
  }
  return null;
}

type Tags = Record<string, unknown>;

/** What planning learns of a RAW: why the encoder will refuse it (null: it is sent) and its sensor's long edge. */
export interface RawFacts {
  refusal: string | null;
  /** The long edge ExifTool reads for the RAW (its sensor's full size, not the preview's); null when unknown. */
  longEdge: number | null;
}

function longEdgeOf(tags: Tags): number | null {
  const size = /^(\d+)\D+(\d+)$/.exec(String(tags['Composite:ImageSize'] ?? ''));
  return size ? Math.max(Number(size[1]), Number(size[2])) || null : null;
}

/** The previews ExifTool lists (it names a tag only for a preview it found to be a JPEG), with where each lies. */
function listedPreviews(tags: Tags): { start: number | null; length: number | null }[] {
  const out: { start: number | null; length: number | null }[] = [];
  for (const key of Object.keys(tags)) {
    const match = /^(.*):(\w+)$/.exec(key);
    if (!match || !PREVIEW_TAGS.includes(match[2]!)) continue;
    const at = (suffix: string) => (typeof tags[`${key}${suffix}`] === 'number' ? tags[`${key}${suffix}`] as number : null);
    out.push({ start: at('Start'), length: at('Length') });
  }
  return out;
}

/** The facts of one RAW from ExifTool's answer about it. */
async function factsOf(path: string, tags: Tags, exiftool: ExifToolCommand): Promise<RawFacts> {
  return { refusal: await refusalOf(path, tags, exiftool), longEdge: longEdgeOf(tags) };
}

async function refusalOf(path: string, tags: Tags, exiftool: ExifToolCommand): Promise<string | null> {
  const listed = listedPreviews(tags);
  const sizes: PreviewSize[] = [];
  let unsure = false;
  if (listed.length > 0) {
    const file = await open(path, 'r');
    try {
      for (const { start, length } of listed) {
        const size = start !== null && length !== null ? await jpegFrameAt(file, start, length) : null;
        if (size) sizes.push(size);
        else unsure = true;
      }
    } finally {
      await file.close();
    }
  }
  if (unsure) {
    // Measured as the encoder measures (its rule, its sizes): only for previews planning cannot read in place.
    const measured = (await Promise.all((await extractPreviews(path, exiftool)).map(measure))).filter((c) => c !== null);
    return previewRefusal(largestPreview(measured), tags);
  }
  return previewRefusal(largestPreview(sizes), tags);
}

/**
 * A checker the planner asks once per RAW (file-facts.ts keeps each answer while the file is unchanged): the reason
 * the encoder will refuse the RAW with (null when it has a usable preview), and its size. Questions asked together are answered
 * by one ExifTool command per FILES_PER_COMMAND files.
 */
export function createRawPreviewCheck(exiftool: ExifToolCommand): (path: string) => Promise<RawFacts> {
  const waiting: { path: string; resolve: (facts: RawFacts) => void; reject: (error: unknown) => void }[] = [];
  let pumping = false;

  // A command that fails for this file alone (ExifTool ended, timed out, the file went away) says nothing sure about
  // the RAW: it is rejected, so the planner leaves the RAW to the encoder and nothing of it is remembered.
  const one = async (path: string): Promise<RawFacts> =>
    factsOf(path, (JSON.parse(await exiftool([...ARGS, path])) as Tags[])[0] ?? {}, exiftool);

  const answer = async (group: typeof waiting) => {
    // ExifTool refuses a whole command for one file it cannot open: then each file is asked on its own.
    const all = await exiftool([...ARGS, ...group.map((g) => g.path)]).then((out) => JSON.parse(out) as Tags[], () => null);
    await Promise.all(group.map(async (g, i) => {
      const tags = all?.[i];
      const verdict = tags && typeof tags.SourceFile === 'string' && resolve(tags.SourceFile) === resolve(g.path) ? factsOf(g.path, tags, exiftool) : one(g.path);
      await verdict.then(g.resolve, g.reject);
    }));
  };

  // The planner asks after a stat of each file, so under load the asks of one shoot arrive spread over a few ms: a
  // command waits while asks keep coming (up to a full command, at most GATHER_MS), not just one event-loop turn.
  const gather = async () => {
    const started = Date.now();
    for (let seen = -1; waiting.length !== seen && waiting.length < FILES_PER_COMMAND && Date.now() - started < GATHER_MS;) {
      seen = waiting.length;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  const pump = async () => {
    try {
      while (waiting.length > 0) {
        await gather();
        await answer(waiting.splice(0, FILES_PER_COMMAND));
      }
    } finally {
      pumping = false;
    }
  };

  return (path) => new Promise((resolve, reject) => {
    waiting.push({ path, resolve, reject });
    if (pumping) return;
    pumping = true;
    void pump(); // the planner asks for a whole shoot in one go: gathered into few commands
  });
}
