import { claim, getOutcome, markAccepted, markSubmitting, recordOutcome, release } from '../../main/core/studio/pg-claims';
import { heartbeat, registerInstance, settledKeys, takeOver } from '../../main/core/studio/pg-instances';
import { studioBatchFacts, studioCreditsCharged } from '../../main/core/studio/pg-report';
import { runRetention } from '../../main/core/studio/pg-retention';
import { readStatus } from '../../main/core/studio/pg-status';
import type { TestPostgres } from './pg-server';
import { PlanRecorder, type PlanLine } from './pg-plans';
import { SEASON_FOLDERS, SEASON_PARAMETERS, SEASON_WORKFLOW, seasonKey } from './studio-seed';
import { ledgerPool } from './studio-claims';

// Every query of the studio ledger's claim path, its status read, its report and its retention rule, run for real
// on a seeded ledger with each statement's plan kept (pg-plans.ts): bench/scale-studio.ts prints them, the studio
// tests assert on them.

/** The plans of the claim path, the status read and the report, on the seeded ledger (nothing they write is kept). */
export async function explainLedger(server: TestPostgres, rows: number): Promise<PlanLine[]> {
  const pool = ledgerPool(server, 2);
  const recorder = new PlanRecorder(pool);
  const rp = recorder.asPool();
  const me = 'inst-0';
  const step = async (label: string, work: () => Promise<unknown>) => {
    recorder.label = label;
    await work();
  };
  try {
    await registerInstance(pool, { id: me, host: 'bench', pid: process.pid, version: 'bench', label: null }, 60_000);
    const fresh = { key: 'explain-new', folderKey: SEASON_FOLDERS[0], contentHash: 'explain-new', workflowId: SEASON_WORKFLOW, parametersHash: SEASON_PARAMETERS,
      relPath: 'new.jpg', sourcePath: '/share/new.jpg', cost: 1 };
    await step('claim, a new photo', () => claim(rp, me, fresh));
    await step('claim, a photo already done', () => claim(rp, me, { ...fresh, key: seasonKey(Math.ceil(rows / 2)) }));
    await step('submitting', () => markSubmitting(rp, me, fresh.key));
    await step('accepted', () => markAccepted(rp, me, fresh.key, 'exe-explain', 1, { id: 'b', job: null, client: null }));
    await step('outcome', () => recordOutcome(rp, me, fresh.folderKey, { key: fresh.key, contentHash: fresh.key, workflowId: SEASON_WORKFLOW,
      parametersHash: SEASON_PARAMETERS, sourcePath: fresh.sourcePath, outcome: 'saved', outputs: [], executionId: 'exe-explain', itemId: null, hotFolderId: null, creditsCharged: 1 }));
    await step('done check (get)', () => getOutcome(rp, seasonKey(7)));
    await claim(pool, me, { ...fresh, key: 'explain-release' });
    await step('release', () => release(rp, me, 'explain-release'));
    await step('settled keys (100 waiting)', () => settledKeys(rp, Array.from({ length: 100 }, (_, i) => seasonKey(1 + i * 13))));
    await step('heartbeat', () => heartbeat(rp, me, 60_000));
    await step('takeover sweep', () => takeOver(rp, me, SEASON_FOLDERS.map((folderKey) => ({ folderKey, workflowId: SEASON_WORKFLOW, parametersHash: SEASON_PARAMETERS }))));
    await step('status', () => readStatus(rp, 'bench'));
    const day = { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() };
    await step('report, last day', () => studioBatchFacts(rp, day));
    await step('report, credits last day', () => studioCreditsCharged(rp, day));
    await step('report, whole season', () => studioBatchFacts(rp, { from: null, to: null }));
    // The rule's plan, with a cut-off nothing meets: the caller decides when the rule really runs.
    await step('retention', () => runRetention(rp, { everyMs: 0, failedDays: 36_500 }));
    await pool.query(`DELETE FROM batchroom_maintenance WHERE task = 'retention'`);
    return recorder.lines;
  } finally {
    await pool.end();
  }
}

