import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/core/log';
import { createFileLogSink } from '../../../main/electron/log-file';

const dir = mkdtempSync(join(tmpdir(), 'batchroom-logs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the desktop log file', () => {
  it('writes redacted JSON lines into the log folder, creating it', () => {
    const logs = join(dir, 'a', 'logs');
    const logger = createLogger({ sink: createFileLogSink(logs), secrets: () => ['sk_live_abcdefghijkl1234'] });
    logger.info('key rejected', { key: 'sk_live_abcdefghijkl1234' });
    const lines = readFileSync(join(logs, 'main.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', message: 'key rejected' });
    expect(JSON.stringify(lines)).not.toContain('abcdefghijkl1234');
  });

  it('rotates to main.old.log instead of growing without bound', () => {
    const logs = join(dir, 'b');
    const sink = createFileLogSink(logs, { maxBytes: 2_000 });
    for (let i = 0; i < 100; i++) sink({ at: new Date(0).toISOString(), level: 'info', scope: 'test', message: `line ${i} ${'x'.repeat(40)}` });
    expect(statSync(join(logs, 'main.log')).size).toBeLessThanOrEqual(2_000);
    expect(statSync(join(logs, 'main.old.log')).size).toBeLessThanOrEqual(2_000);
    expect(readFileSync(join(logs, 'main.log'), 'utf8')).toContain('line 99');
  });

  it('never throws when the folder cannot be written', () => {
    // A "folder" below a regular file: every write fails with ENOTDIR.
    writeFileSync(join(dir, 'not-a-folder'), '');
    const sink = createFileLogSink(join(dir, 'not-a-folder', 'logs'));
    expect(() => sink({ at: '', level: 'error', scope: 's', message: 'm' })).not.toThrow();
  });
});
