// Fixtures and the bare loop for bench/scale-planning.ts: N small distinct JPEGs in folders of FOLDER_SIZE, cached
// under /tmp/batchroom-scale-fixtures/planning-<count> (100k files take minutes to write; a later run reuses them).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { RACY_MS } from '../main/core/images/file-facts';

export const FIXTURE_ROOT = '/tmp/batchroom-scale-fixtures';
export const FOLDER_SIZE = 100;

export interface PlanningFixture {
  dir: string;
  /** Every photo, in folder order (the first N are the N-photo point). */
  files: string[];
}

const folderName = (i: number) => `d${String(i).padStart(4, '0')}`;
const fileName = (i: number) => `IMG_${String(i).padStart(6, '0')}.jpg`;

/** The file paths of photo 0…count-1 (whether or not they exist yet). */
export function fixtureFiles(dir: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => join(dir, folderName(Math.floor(i / FOLDER_SIZE)), fileName(i)));
}

/**
 * `count` 64×48 JPEGs, each distinct (a comment segment with its number right after the start of image: sharp made
 * the picture once, the bytes differ, so no two are duplicates). Written into a temporary folder and renamed when
 * complete, so an interrupted run never leaves a half fixture that a later run would trust.
 */
export async function planningFixture(count: number): Promise<PlanningFixture> {
  const dir = join(FIXTURE_ROOT, `planning-${count}`);
  const files = fixtureFiles(dir, count);
  if (existsSync(join(dir, '.complete'))) return { dir, files };
  const temp = `${dir}.part-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  const base = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 120, g: 90, b: 140 } } }).jpeg({ quality: 80 }).toBuffer();
  const tempFiles = fixtureFiles(temp, count);
  for (let folder = 0; folder * FOLDER_SIZE < count; folder++) await mkdir(join(temp, folderName(folder)), { recursive: true });
  const write = async (i: number) => {
    const text = Buffer.from(`batchroom planning fixture ${i}`);
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xfffe, 0); // COM
    segment.writeUInt16BE(text.length + 2, 2);
    await writeFile(tempFiles[i]!, Buffer.concat([base.subarray(0, 2), segment, text, base.subarray(2)]));
  };
  for (let i = 0; i < count; i += 64) await Promise.all(Array.from({ length: Math.min(64, count - i) }, (_, k) => write(i + k)));
  await writeFile(join(temp, '.complete'), String(count));
  await rm(dir, { recursive: true, force: true });
  await rename(temp, dir);
  // Photos written moments ago are "racy" (file-facts.ts): read on every look, never kept. The first rounds take less
  // than that at small N, so Start after the estimate re-read them all (CI, a fresh machine: 10 of 10).
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  return { dir, files };
}

/**
 * CPU time of this whole process (every thread: libuv's pool, libvips') since `start`, ms. On a machine shared at
 * load 20–30 the wall time of one loop swung 2–3× from one round to the next; the CPU it takes hardly moves.
 */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * What an estimate cannot avoid doing for a file it has never seen: stat it, read it, SHA-256 its bytes and read its
 * header with sharp. One file after another, as the plainest loop would.
 */
export async function bareLoop(files: readonly string[]): Promise<{ ms: number; cpuMs: number; edges: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let edges = 0;
  for (const path of files) {
    await stat(path);
    const bytes = await readFile(path);
    createHash('sha256').update(bytes).digest('hex');
    const { width = 0, height = 0 } = await sharp(bytes).metadata();
    edges += Math.max(width, height) > 0 ? 1 : 0;
  }
  return { ms: performance.now() - started, cpuMs: cpuMsSince(cpu), edges };
}

/** The inputs of the N-photo point: whole folders when N fills them, else the files themselves. */
export function pointInputs(fixture: PlanningFixture, n: number): string[] {
  if (n % FOLDER_SIZE !== 0) return fixture.files.slice(0, n);
  return Array.from({ length: n / FOLDER_SIZE }, (_, i) => join(fixture.dir, folderName(i)));
}
