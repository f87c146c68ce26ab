import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

// Shared by bench/scale-memory.ts and its children: the cached photo fixture, the RSS samples and the slope that says
// whether memory grows with the number of items done.

export const FIXTURE_ROOT = '/tmp/batchroom-scale-fixtures';
/** Photos per subfolder: a season's nested folders, and no directory of 100k entries. */
const PER_FOLDER = 1000;

/** One reading: items finished so far and the process's memory at that moment (bytes). */
export interface MemorySample {
  done: number;
  rss: number;
  heapUsed?: number;
}

/** Same pixels, different bytes: a COM segment right after SOI makes each copy's content hash unique. */
export function uniqueCopy(jpeg: Buffer, n: number): Buffer {
  const text = Buffer.from(`batchroom scale copy ${n}`);
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, text, jpeg.subarray(2)]);
}

/**
 * N small distinct JPEGs (64×48) in subfolders of 1,000, cached by count under FIXTURE_ROOT (100k take a minute to
 * write): a `<folder>.complete` marker says the set is whole. Returns the folder to give the batch.
 */
export async function photoFixture(count: number): Promise<string> {
  const folder = join(FIXTURE_ROOT, `memory-${count}`);
  // The marker sits beside the folder, not in it: inside, the batch would count it as a skipped file.
  const marker = `${folder}.complete`;
  if (existsSync(marker)) return folder;
  await rm(folder, { recursive: true, force: true });
  const base = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 140, b: 60 } } }).jpeg().toBuffer();
  for (let start = 0; start < count; start += PER_FOLDER) {
    const sub = join(folder, `d${String(start / PER_FOLDER).padStart(3, '0')}`);
    await mkdir(sub, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = start; i < Math.min(count, start + PER_FOLDER); i++) writes.push(writeFile(join(sub, `p${i}.jpg`), uniqueCopy(base, i)));
    await Promise.all(writes);
  }
  // The planner reads a file changed in the last 2 s again at Start (images/file-facts.ts): a shoot is older.
  await new Promise((r) => setTimeout(r, 2_100));
  await writeFile(marker, String(count));
  return folder;
}

/**
 * Least-squares slope of `value` over `done` for the samples with done in [from, to], in bytes per item; null with
 * fewer than three such samples. The slope between N/4 and N is what "flat" means: what each further item costs.
 */
export function slopePerItem(samples: readonly MemorySample[], from: number, to: number, value: (s: MemorySample) => number | undefined = (s) => s.rss): number | null {
  const points = samples.filter((s) => s.done >= from && s.done <= to && value(s) !== undefined).map((s) => [s.done, value(s)!] as const);
  if (points.length < 3) return null;
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) { num += (x - mx) * (y - my); den += (x - mx) ** 2; }
  return den === 0 ? null : num / den;
}

/** The peak of the samples (bytes). */
export const peakOf = (samples: readonly MemorySample[], value: (s: MemorySample) => number = (s) => s.rss): number => samples.reduce((m, s) => Math.max(m, value(s)), 0);

/** Resident and high-water memory of a process from /proc (Linux), in bytes; null once it is gone. */
export async function procMemory(pid: number): Promise<{ rss: number; hwm: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(/\d+/.exec(status.split('\n').find((l) => l.startsWith(key)) ?? '')?.[0] ?? 0) * 1024;
    return { rss: kb('VmRSS:'), hwm: kb('VmHWM:') };
  } catch {
    return null;
  }
}

/** The ids of a process's live descendants (Linux /proc), deepest last. */
export async function descendantsOf(pid: number): Promise<number[]> {
  const { readdir } = await import('node:fs/promises');
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields after its last ')' are plain.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch { /* gone meanwhile */ }
  }
  const found: number[] = [];
  const walk = (parent: number) => { for (const [child, ppid] of parents) if (ppid === parent) { found.push(child); walk(child); } };
  walk(pid);
  return found;
}

export const mb = (bytes: number, digits = 0): number => Number((bytes / 2 ** 20).toFixed(digits));
/** Bytes per item → MB per 1,000 items. */
export const mbPer1k = (bytesPerItem: number | null): number | null => (bytesPerItem === null ? null : Number(((bytesPerItem * 1000) / 2 ** 20).toFixed(3)));
