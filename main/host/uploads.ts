import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Photos only; a bigger body is refused rather than filling the disk. */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

export class UploadError extends Error {
  constructor(readonly status: 400 | 413 | 507, message: string) {
    super(message);
  }
}

/**
 * A file name from the browser is only a name: strip any directory part, control characters and characters no file
 * system accepts, keep the extension (the engine decides support from the bytes and the name).
 */
export function safeUploadName(raw: string | null): string {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = last.replace(/[\p{Cc}<>:"|?*]/gu, '_').replace(/^\.+/, '').trim().slice(-180);
  return cleaned || 'upload';
}

/**
 * Stages one dropped file under `<dir>/<random>/<name>` and returns its path. A plain browser exposes no paths, so
 * the renderer uploads what the user dropped; each file gets its own folder so two `IMG_0001.jpg` never collide and
 * the original name survives for output naming.
 */
/** Files and bytes staged right now (all batches), so a client cannot fill the disk of a NAS one upload at a time. */
export interface StagingBudget {
  files: number;
  bytes: number;
  readonly maxFiles: number;
  readonly maxBytes: number;
  readonly maxFileBytes: number;
}

export function createStagingBudget(limits: { maxStagedFiles: number; maxStagedBytes: number; maxUploadFileBytes: number }): StagingBudget {
  return { files: 0, bytes: 0, maxFiles: limits.maxStagedFiles, maxBytes: limits.maxStagedBytes, maxFileBytes: limits.maxUploadFileBytes };
}

export async function stageUpload(
  request: IncomingMessage,
  dir: string,
  rawName: string | null,
  budget: StagingBudget = createStagingBudget({ maxStagedFiles: Infinity, maxStagedBytes: Infinity, maxUploadFileBytes: MAX_UPLOAD_BYTES }),
  drop: { files: number; bytes: number; readonly maxFiles: number; readonly maxBytes: number } = { files: 0, bytes: 0, maxFiles: Infinity, maxBytes: Infinity },
): Promise<string> {
  const maxFileBytes = budget.maxFileBytes;
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxFileBytes) throw new UploadError(413, `file too large (limit ${maxFileBytes} bytes per file)`);
  if (budget.files + 1 > budget.maxFiles) throw new UploadError(507, `too many staged uploads (limit ${budget.maxFiles} files); staged photos are released when their batch ends`);
  if (drop.files + 1 > drop.maxFiles) throw new UploadError(413, `one drop may add at most ${drop.maxFiles} photos — add the folder by path instead`);
  if (Number.isFinite(declared) && budget.bytes + declared > budget.maxBytes) {
    throw new UploadError(507, `the upload staging area is full (limit ${budget.maxBytes} bytes); staged photos are released when their batch ends`);
  }
  const folder = join(dir, randomBytes(8).toString('hex'));
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, safeUploadName(rawName));
  let received = 0;
  budget.files += 1;
  drop.files += 1;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      budget.bytes += chunk.length;
      drop.bytes += chunk.length;
      if (received > maxFileBytes) callback(new UploadError(413, `file too large (limit ${maxFileBytes} bytes per file)`));
      else if (drop.bytes > drop.maxBytes) callback(new UploadError(413, `this drop is over ${drop.maxBytes} bytes — add the folder by path instead`));
      else if (budget.bytes > budget.maxBytes) callback(new UploadError(507, `the upload staging area is full (limit ${budget.maxBytes} bytes)`));
      else callback(null, chunk);
    },
  });
  try {
    await pipeline(request, limit, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    budget.files -= 1;
    budget.bytes -= received;
    drop.files -= 1;
    drop.bytes -= received;
    await rm(folder, { recursive: true, force: true });
    if (error instanceof UploadError) throw error;
    throw new UploadError(400, 'upload interrupted');
  }
  return path;
}
