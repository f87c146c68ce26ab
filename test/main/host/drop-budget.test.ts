import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createDropLedger } from '../../../main/host/drop-budget';
import { createStagingBudget, stageUpload, UploadError } from '../../../main/host/uploads';

const body = (bytes: number) => Object.assign(Readable.from([Buffer.alloc(bytes)]), { headers: {} }) as unknown as IncomingMessage;

describe('per-drop upload budget', () => {
  const limits = { maxDropFiles: 3, maxDropBytes: 100 };

  it.each([
    [{ files: 4, bytes: 10 }, /this drop has 4 photos/],
    [{ files: 1, bytes: 2 ** 31 }, /this drop holds 2 GiB/],
  ])('refuses a drop declared as %o with a way out', (declared, message) => {
    const ledger = createDropLedger(limits);
    let error: unknown;
    try { ledger.open('d', declared); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).status).toBe(413);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain('add the folder by path');
  });

  it('adds up one drop across its requests, and keeps drops apart', () => {
    const ledger = createDropLedger(limits);
    const a = ledger.open('a', { files: 3, bytes: 30 });
    a.files += 2;
    a.bytes += 20;
    expect(ledger.open('a', { files: 3, bytes: 30 })).toBe(a);
    expect(ledger.open('b', { files: 3, bytes: 30 })).toMatchObject({ files: 0, bytes: 0 });
    // A request without a drop id is its own drop (older pages).
    expect(ledger.open(null, { files: 0, bytes: 0 })).toMatchObject({ files: 0, bytes: 0, maxFiles: 3, maxBytes: 100 });
  });

  it('forgets drops idle for an hour', () => {
    let now = 0;
    const ledger = createDropLedger(limits, () => now);
    const a = ledger.open('a', { files: 0, bytes: 0 });
    a.files = 3;
    now = 61 * 60_000;
    ledger.open('b', { files: 0, bytes: 0 });
    expect(ledger.open('a', { files: 0, bytes: 0 }).files).toBe(0);
  });

  it('stages files of one drop until its photo or byte limit, and frees what a refused file took', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batchroom-drop-'));
    try {
      const staging = createStagingBudget({ maxStagedFiles: 100, maxStagedBytes: 10_000, maxUploadFileBytes: 1_000 });
      const ledger = createDropLedger({ maxDropFiles: 3, maxDropBytes: 100 });
      const drop = () => ledger.open('x', { files: 0, bytes: 0 });
      await stageUpload(body(40), dir, 'a.jpg', staging, drop());
      await stageUpload(body(40), dir, 'b.jpg', staging, drop());
      await expect(stageUpload(body(40), dir, 'c.jpg', staging, drop())).rejects.toMatchObject({ status: 413 });
      expect(drop()).toMatchObject({ files: 2, bytes: 80 });
      await stageUpload(body(10), dir, 'd.jpg', staging, drop());
      await expect(stageUpload(body(1), dir, 'e.jpg', staging, drop())).rejects.toThrow(/at most 3 photos/);
      expect(readdirSync(dir)).toHaveLength(3);
      expect(staging).toMatchObject({ files: 3, bytes: 90 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
