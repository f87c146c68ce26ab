import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BALANCE_READINGS_FILE, openBalanceReadings } from '../../../main/core/reports/balance-readings';
import { pruneReadings } from '../../../main/core/reports/balance-prune';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const daysAgo = (d: number, minutes = 0): string => new Date(NOW.getTime() - d * 86_400_000 + minutes * 60_000).toISOString();
const line = (at: string, account: string, credits: number): string => `${JSON.stringify({ at, account, credits })}\n`;

describe('balance readings are pruned', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-prune-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('drops readings older than 400 days when opened, keeping each account\'s last one before the cut-off, atomically', () => {
    const path = join(dir, BALANCE_READINGS_FILE);
    writeFileSync(path, [
      line(daysAgo(800), 'a', 10), line(daysAgo(500), 'a', 9), line(daysAgo(450), 'b', 70), line(daysAgo(420), 'a', 8),
      line(daysAgo(399), 'a', 7), line(daysAgo(30), 'b', 60), line(daysAgo(1), 'a', 5),
    ].join(''), { mode: 0o600 });
    const readings = openBalanceReadings(dir, { now: () => NOW });
    expect(readings.list().map((r) => [r.account, r.credits])).toEqual([['b', 70], ['a', 8], ['a', 7], ['b', 60], ['a', 5]]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([BALANCE_READINGS_FILE]); // no temp file left behind
    // Recording goes on into the pruned file.
    readings.record({ at: NOW.toISOString(), account: 'a', credits: 4 });
    expect(openBalanceReadings(dir, { now: () => NOW }).list().at(-1)?.credits).toBe(4);
  });

  it('over the size cap: older than a day thinned to one reading per account per hour, then the oldest go', () => {
    const readings = [];
    for (let m = 0; m < 180; m += 1) readings.push({ at: daysAgo(3, m), account: 'a', credits: 1000 - m }); // 3 hours, a reading a minute
    for (let m = 0; m < 30; m += 1) readings.push({ at: daysAgo(0, -60 + m), account: 'a', credits: 500 - m }); // the last hour
    const perLine = Buffer.byteLength(line(readings[0]!.at, 'a', 1000));
    const thinned = pruneReadings(readings, NOW, { keepDays: 400, maxBytes: 40 * perLine });
    // The three old hours keep their last readings (minute 59, 119, 179); the last hour is untouched.
    expect(thinned.length).toBe(3 + 30);
    expect(thinned.slice(0, 3).map((r) => r.credits)).toEqual([1000 - 59, 1000 - 119, 1000 - 179]);
    const capped = pruneReadings(readings, NOW, { keepDays: 400, maxBytes: 31 * perLine });
    expect(capped.length).toBe(31);
    expect(capped[0]!.credits).toBe(1000 - 179);
  });

  it('a file that is recent and under the cap is left as it is', () => {
    const path = join(dir, BALANCE_READINGS_FILE);
    writeFileSync(path, line(daysAgo(399), 'a', 7) + line(daysAgo(1), 'a', 5));
    const before = statSync(path).ino;
    openBalanceReadings(dir, { now: () => NOW });
    expect(statSync(path).ino).toBe(before);
  });
});
