import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BALANCE_READINGS_FILE, openBalanceReadings, recordingBalances } from '../../../main/core/reports/balance-readings';
import type { ServiceClient } from '../../../main/core/service/types';

describe('balance readings', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-readings-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('keeps each read with its time and account across reopening; an unchanged balance once a minute; a torn line skipped', () => {
    const readings = openBalanceReadings(dir);
    readings.record({ at: '2026-11-27T10:00:00.000Z', account: 'a', credits: 100 });
    readings.record({ at: '2026-11-27T10:00:30.000Z', account: 'a', credits: 100 }); // same, within a minute: not kept
    readings.record({ at: '2026-11-27T10:00:40.000Z', account: 'a', credits: 97 });
    readings.record({ at: '2026-11-27T10:00:41.000Z', account: 'b', credits: 5 });
    readings.record({ at: '2026-11-27T10:02:00.000Z', account: 'a', credits: 97 }); // same, a minute later: kept
    appendFileSync(join(dir, BALANCE_READINGS_FILE), '{"at":"2026-11-27T10:03'); // a crash mid-line
    expect(openBalanceReadings(dir).list().map((r) => [r.account, r.credits, r.at.slice(11, 19)])).toEqual([
      ['a', 100, '10:00:00'], ['a', 97, '10:00:40'], ['b', 5, '10:00:41'], ['a', 97, '10:02:00'],
    ]);
  });

  it('a client records every balance it reads, under its service account', async () => {
    const readings = openBalanceReadings(dir);
    let credits = 50;
    const client = {
      baseUrl: 'http://127.0.0.1:1/api/v1', accountId: 'acct-1',
      getBalance: async () => ({ apiCredits: credits, webCredits: { total: 0, breakdown: [] } }),
    } as unknown as ServiceClient;
    const recording = recordingBalances(client, readings);
    expect((await recording.getBalance()).apiCredits).toBe(50);
    credits = 48;
    await recording.getBalance();
    expect(recording.baseUrl).toBe(client.baseUrl);
    expect(readings.list().map((r) => [r.account, r.credits])).toEqual([['acct-1', 50], ['acct-1', 48]]);
  });
});
