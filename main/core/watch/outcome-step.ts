import { inGroup } from '../../../shared/engine/item-states';
import type { HotFolderActivity, HotFolderConfig, HotFolderStatus } from '../../../shared/hotfolders/model';
import { ledgerKey } from '../journal/ledger-key';
import type { Ledger } from '../studio/ledger';
import { DONE_DIR, FAILED_DIR } from './ignore';
import { moveOriginalReported } from './originals';
import type { HotFolderEngine, HotFolderItemOutcome } from './ports';
import type { Candidate } from './submitter';

// A hot folder's way from an item's outcome to the ledger and Done/ or Failed/ (file-pipeline.ts submits; this
// settles): the ledger first (the result is saved), then the original moved — a crash in between leaves a done file
// that the next scan moves.

const NOT_RESUBMITTED = {
  unknown: 'outcome unknown: may have been charged; not resubmitted automatically',
  'charged-no-result': 'charged, but the service lost the result: report it to the provider; not resubmitted automatically',
} as const;

type Handled = { state: HotFolderItemOutcome['state']; credits: number; movedTo: string | null };

/** What the folder's pipeline lends its outcome step. */
export interface OutcomeDeps {
  folder: {
    config: HotFolderConfig;
    status: HotFolderStatus;
    activity(kind: HotFolderActivity['kind'], path: string, message: string): void;
  };
  engine: Pick<HotFolderEngine, 'sourceMoved'>;
  ledger: Ledger;
  /** Keys submitted and not yet final, across every folder. */
  inFlightKeys: Map<string, string>;
  /** Keys that failed this session (not retried by a scan until the user asks). */
  sessionFailed: Set<string>;
  /** The candidate in flight for a path (the pipeline's). */
  candidateFor(path: string): Candidate | undefined;
  release(candidate: Candidate): void;
  claimFinished(key: string): void;
  /** The submitter's budget reservation, settled with what was charged. */
  settled(credits: number): void;
  parametersHash(): string;
}

export class OutcomeStep {
  /** The last outcome handled per item: a retried item's next outcome replaces it instead of adding to it. */
  private readonly lastOutcome = new Map<string, Handled>();

  constructor(private readonly d: OutcomeDeps) {}

  /** Ledger first (the result is saved), then Done/Failed: a crash in between leaves a done file that the next scan moves. */
  async handle(outcome: HotFolderItemOutcome): Promise<void> {
    const previous = outcome.itemId ? this.lastOutcome.get(outcome.itemId) : undefined;
    if (previous) return this.handleLaterAttempt(outcome, previous);
    const config = this.d.folder.config;
    const current = this.d.candidateFor(outcome.sourcePath);
    // The same path may already hold newer content in flight (rewritten while its first version ran): an outcome
    // belongs to the candidate only if the content (or, lacking a hash, the batch) matches.
    const matches = current && (outcome.contentHash ? current.contentHash === outcome.contentHash : current.batchId === outcome.batchId);
    const candidate = matches ? current : undefined;
    const contentHash = outcome.contentHash ?? candidate?.contentHash ?? null;
    const workflowId = candidate?.workflowId ?? outcome.workflowId ?? config.workflowId;
    const paramsHash = candidate?.parametersHash ?? outcome.parametersHash ?? this.d.parametersHash();
    const key = candidate?.key ?? (contentHash ? ledgerKey(contentHash, workflowId, paramsHash) : null);
    if (key) this.d.claimFinished(key);
    if (candidate) this.d.release(candidate);
    else if (key && this.d.inFlightKeys.get(key) === outcome.sourcePath) {
      this.d.inFlightKeys.delete(key);
      this.d.folder.status.queued = Math.max(0, this.d.folder.status.queued - 1);
    }
    this.d.settled(outcome.creditsCharged);
    const handled = { state: outcome.state, credits: outcome.creditsCharged, movedTo: null as string | null };
    if (outcome.itemId) this.lastOutcome.set(outcome.itemId, handled);
    // Moving the original away while a newer version of it is still queued would pull the file from under it.
    const mayMove = config.moveOriginals && this.d.candidateFor(outcome.sourcePath) === undefined;
    if (key && contentHash) await this.record(key, contentHash, workflowId, paramsHash, outcome);
    const path = outcome.sourcePath;
    switch (outcome.state) {
      case 'saved':
        this.d.folder.status.processed++;
        this.d.folder.activity('saved', path, outcome.outputs[0] ?? 'saved');
        if (mayMove) await this.moveTo(path, DONE_DIR);
        return;
      case 'failed':
        this.d.folder.status.failed++;
        if (key) this.d.sessionFailed.add(key);
        this.d.folder.activity('failed', path, outcome.reason ?? 'failed');
        if (mayMove) handled.movedTo = await this.moveTo(path, FAILED_DIR, outcome.itemId);
        return;
      case 'unknown':
      case 'charged-no-result':
        this.d.folder.status.failed++;
        this.d.folder.activity('failed', path, outcome.reason ?? NOT_RESUBMITTED[outcome.state]);
        return;
      default:
        this.d.folder.activity('skipped', path, outcome.reason ?? outcome.state);
    }
  }

  /**
   * A retried item ended again (the outbox delivers every attempt): its new outcome replaces the earlier one. The
   * budget reservation was released and the submitter settled by the first outcome, so only the difference in
   * credits is added; the counts move from the old state to the new; an original moved to Failed/ (the item was
   * told where) goes on to Done/ when the retry saved it.
   */
  private async handleLaterAttempt(outcome: HotFolderItemOutcome, previous: Handled): Promise<void> {
    const status = this.d.folder.status;
    if (previous.state === 'saved') status.processed = Math.max(0, status.processed - 1);
    if (inGroup('unsuccessful', previous.state)) status.failed = Math.max(0, status.failed - 1);
    status.creditsSpent += outcome.creditsCharged - previous.credits;
    this.lastOutcome.set(outcome.itemId!, { state: outcome.state, credits: outcome.creditsCharged, movedTo: previous.movedTo });
    const config = this.d.folder.config;
    const contentHash = outcome.contentHash;
    const workflowId = outcome.workflowId ?? config.workflowId;
    const paramsHash = outcome.parametersHash ?? this.d.parametersHash();
    const key = contentHash ? ledgerKey(contentHash, workflowId, paramsHash) : null;
    if (key && contentHash) await this.record(key, contentHash, workflowId, paramsHash, outcome);
    const path = outcome.sourcePath;
    if (outcome.state === 'saved') {
      status.processed++;
      if (key) this.d.sessionFailed.delete(key);
      this.d.folder.activity('saved', path, outcome.outputs[0] ?? 'saved');
      if (config.moveOriginals && previous.movedTo) await this.moveTo(previous.movedTo, DONE_DIR, null, FAILED_DIR);
    } else if (inGroup('unsuccessful', outcome.state)) {
      status.failed++;
      this.d.folder.activity('failed', path, outcome.reason ?? outcome.state);
    } else {
      this.d.folder.activity('skipped', path, outcome.reason ?? outcome.state);
    }
  }

  /** The outcome under its ledger key (a skipped file was never the folder's to record). */
  private async record(key: string, contentHash: string, workflowId: string, paramsHash: string, outcome: HotFolderItemOutcome): Promise<void> {
    if (outcome.state === 'skipped') return;
    await this.d.ledger.record({
      key, contentHash, workflowId, parametersHash: paramsHash, sourcePath: outcome.sourcePath, outcome: outcome.state, outputs: outcome.outputs,
      executionId: outcome.executionId, itemId: outcome.itemId, hotFolderId: this.d.folder.config.id, creditsCharged: outcome.creditsCharged,
    });
  }

  private moveTo(path: string, subfolder: string, itemId: string | null = null, fromSorted?: string): Promise<string | null> {
    return moveOriginalReported(this.d.folder, this.d.engine, { path, subfolder, itemId, fromSorted });
  }
}
