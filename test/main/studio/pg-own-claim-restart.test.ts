import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../../main/core/journal/journal';
import { localClaimKeys } from '../../../main/core/studio/local-unsent';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import type { ClaimRequest } from '../../../main/core/studio/ledger';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';

// kill -9 of an instance between its claim's COMMIT and the hot folder's batch reaching the local journal (the claim
// step claims up to studioClaimAhead photos ahead of the journal; a lost reply to a committed claim is the same). The
// instance id is kept in the state dir (connect.ts studioInstanceId), so the restarted app is the claim's owner, alive.
// The ledger is opened as core-runtime.ts opens it: with what its (real, here empty) local journal knows.

let server: TestPostgres;
const opened: StudioLedger[] = [];
const stateDir = mkdtempSync(join(tmpdir(), 'batchroom-own-claim-'));
const journal = openJournal(stateDir);

beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.map((l) => l.close().catch(() => undefined)));
  await server?.stop();
  journal.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const open = async (id: string) => {
  const ledger = await openStudioLedger({ url: server.url, instanceId: id, version: 'test', env: { PGPASSWORD: server.password }, leaseMs: 60_000,
    heartbeatMs: 3_600_000, knownLocally: localClaimKeys(journal) });
  opened.push(ledger);
  return ledger;
};
const request: ClaimRequest = {
  key: 'k-restart', folderKey: 'shoot', contentHash: 'h', workflowId: 'wf', parametersHash: 'ph', relPath: 'a.jpg', sourcePath: '/s/a.jpg', cost: 1,
};

describe('a claim committed just before kill -9', () => {
  it('is processed after the instance restarts (not "taken" by itself for ever)', async () => {
    const before = await open('phoenix');
    expect(await before.claim(request)).toEqual({ kind: 'claimed' });
    // kill -9 here: nothing journaled locally, no give-back. The app starts again with the same instance id.
    const after = await open('phoenix');
    const again = await after.claim(request);
    // Today: { kind: 'taken', owner: 'phoenix', state: 'claimed' }, and settledKeys never lets it go (its owner is alive),
    // so no instance ever processes the photo while this one runs.
    const settled = await after.settledKeys([request.key]);
    expect(again.kind === 'claimed' || settled.includes(request.key)).toBe(true);
  }, 60_000);
});
