import { z } from 'zod';
import { formatCredits } from '../engine/money';
import type { BatchSummary, PauseCode } from '../engine/model';
import { plural } from '../service/credit-kind';

// "Tell me when it's done": what deserves a notification and what it says, in one place. The core decides from the
// batches' and hot folders' state changes (main/core/app/attention.ts) and emits `app:attention`; the Electron glue
// shows it natively, the browser host as a Web Notification, and the CLI rings its bell (shouldRingBell). Only an
// ending or a pause that needs the user is said: never an item, never a pause the user pressed themselves.

export const ATTENTION_KINDS = ['batch-ended', 'batch-paused', 'hot-folder-run-ended'] as const;

/** A `native` catalog message (docs/i18n.md): the host words it in the app's language. */
const MessageSchema = z.object({ key: z.string(), values: z.record(z.string(), z.union([z.string(), z.number()])) });
export type AttentionMessage = z.infer<typeof MessageSchema>;

export const AttentionSchema = z.object({
  kind: z.enum(ATTENTION_KINDS),
  /** The English sentence (the CLI's and the logs'; a host without the key's catalog shows it as it is). */
  title: z.string(),
  body: z.string(),
  /**
   * The same, as message keys and values, so each host says it in its own language (shared/notify/attention-words.ts).
   * `credits` is formatted by the host's locale and given to the body as its `{credits}` value.
   */
  words: z.object({
    title: MessageSchema,
    body: MessageSchema,
    credits: z.object({ amount: z.number(), kind: z.enum(['test', 'real']) }).optional(),
  }).optional(),
  /** The batch Review opens on a click (a hot-folder run: its last batch; null when none is known). */
  batchId: z.string().nullable(),
  /** Failed, maybe-charged or paused items: worth showing even while the user looks at the app. */
  needsAction: z.boolean(),
});
export type Attention = z.infer<typeof AttentionSchema>;

/** The pauses someone must be told about (money, the service, the key, the output disk), with their headline. */
const PAUSE_KEYS: Readonly<Record<Exclude<PauseCode, 'user'>, string>> = {
  'insufficient-credits': 'attention.pausedCredits',
  budget: 'attention.pausedBudget',
  'service-unreachable': 'attention.pausedOutage',
  unauthorized: 'attention.pausedKey',
  'output-unwritable': 'attention.pausedDisk',
};

const PAUSE_TITLES: Readonly<Record<Exclude<PauseCode, 'user'>, string>> = {
  'insufficient-credits': 'Batch paused: out of credits',
  budget: 'Batch paused: budget reached',
  'service-unreachable': 'Batch paused: the service is not answering',
  unauthorized: 'Batch paused: the API key was rejected',
  'output-unwritable': 'Batch paused: results cannot be written',
};

const OUTAGE_BODY = "can't reach the service — the batch resumes by itself once it answers again";

type Summary = Pick<BatchSummary, 'id' | 'workflowName' | 'state' | 'pauseCode' | 'pausedReason' | 'counts' | 'creditsSpent'>;

/** "24 saved, 1 failed · 24 credits" (maybe-charged items named: they need a look before anything is sent again). */
function tally(counts: BatchSummary['counts'], creditsSpent: number, kind?: 'test' | 'real'): { text: string; troubled: boolean; values: AttentionMessage['values'] } {
  const saved = counts.saved ?? 0;
  const failed = counts.failed ?? 0;
  const maybeCharged = (counts.unknown ?? 0) + (counts['charged-no-result'] ?? 0);
  const parts = [`${saved} saved`];
  if (failed > 0) parts.push(`${failed} failed`);
  if (maybeCharged > 0) parts.push(`${maybeCharged} may be charged without a result`);
  // One message per shape (a select, not pieces glued together): languages without plurals need no count to pick one.
  const shape = failed > 0 && maybeCharged > 0 ? 'both' : failed > 0 ? 'failed' : maybeCharged > 0 ? 'maybe' : 'saved';
  return {
    text: `${parts.join(', ')} · ${formatCredits(creditsSpent, kind)}`,
    troubled: failed > 0 || maybeCharged > 0,
    values: { shape, saved, failed, maybeCharged },
  };
}

/**
 * What a batch's change from `previous` to `next` deserves: an ending (completed or cancelled), a pause that needs
 * the user, or nothing. A batch seen for the first time is not news (a restart lists old batches); a hot folder's
 * batch does not announce its own end (the folder's run does: hotFolderRunAttention), but its pauses do.
 */
export function batchAttention(previous: Summary | undefined, next: Summary, options: { hotFolder?: boolean; credits?: 'test' | 'real' } = {}): Attention | null {
  if (!previous) return null;
  if (next.state === 'completed' || next.state === 'cancelled') {
    if (previous.state === next.state || options.hotFolder) return null;
    const { text, troubled, values } = tally(next.counts, next.creditsSpent, options.credits);
    const done = next.state === 'completed';
    return {
      kind: 'batch-ended', title: `${done ? 'Batch done' : 'Batch cancelled'} — ${next.workflowName}`, body: text, batchId: next.id, needsAction: troubled,
      words: {
        title: { key: done ? 'attention.batchDone' : 'attention.batchCancelled', values: { workflow: next.workflowName } },
        body: { key: 'attention.tally', values },
        credits: { amount: next.creditsSpent, kind: options.credits ?? 'real' },
      },
    };
  }
  if (next.state !== 'paused' || !next.pauseCode || next.pauseCode === 'user') return null;
  if (previous.state === 'paused' && previous.pauseCode === next.pauseCode) return null;
  const outage = next.pauseCode === 'service-unreachable';
  return {
    kind: 'batch-paused',
    title: PAUSE_TITLES[next.pauseCode],
    // An outage's pausedReason is the engine's token, and its retry countdown would be stale in a notification.
    body: `${next.workflowName}: ${outage ? OUTAGE_BODY : next.pausedReason ?? 'paused'}`,
    batchId: next.id,
    needsAction: true,
    words: {
      title: { key: PAUSE_KEYS[next.pauseCode], values: {} },
      // Any other pause's reason is the engine's sentence (main's words, still English: docs/i18n.md).
      body: outage
        ? { key: 'attention.outageBody', values: { workflow: next.workflowName } }
        : { key: 'attention.pausedBody', values: { workflow: next.workflowName, reason: next.pausedReason ?? 'paused' } },
    },
  };
}

export interface HotFolderRun {
  /** The watched folder's path (its last name is shown). */
  path: string;
  processed: number;
  failed: number;
  creditsSpent: number;
  lastBatchId: string | null;
}

/** A hot folder's run (its queue went from busy back to empty) that did anything; null for a run that did nothing. */
export function hotFolderRunAttention(run: HotFolderRun, options: { credits?: 'test' | 'real' } = {}): Attention | null {
  if (run.processed <= 0 && run.failed <= 0) return null;
  const name = run.path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || run.path;
  const failed = run.failed > 0 ? `, ${run.failed} failed` : '';
  const processed = Math.max(0, run.processed);
  const creditsSpent = Math.max(0, run.creditsSpent);
  return {
    kind: 'hot-folder-run-ended',
    title: `Hot folder done — ${name}`,
    body: `${plural(processed, 'photo')} processed${failed} · ${formatCredits(creditsSpent, options.credits)}`,
    batchId: run.lastBatchId,
    needsAction: run.failed > 0,
    words: {
      title: { key: 'attention.hotFolderDone', values: { name } },
      body: { key: 'attention.hotFolderTally', values: { shape: run.failed > 0 ? 'failed' : 'clean', processed, failed: run.failed } },
      credits: { amount: creditsSpent, kind: options.credits ?? 'real' },
    },
  };
}

export { BELL, shouldRingBell } from './bell';
