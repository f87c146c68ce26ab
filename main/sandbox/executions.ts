import { randomBytes } from 'node:crypto';
import type { Accounts } from './accounts';
import type { ExecutionLedger, PersistedExecution } from './execution-ledger';
import type { ExecutionRecord } from './execution-record';
import type { Limiter } from './limiter';
import type { ResultStore } from './results';
import type { ReusedImages } from './reused-images';
import type { StatsRecorder } from './stats';
import type { ValidatedRequest } from './validate';
import type { WorkflowDefinition, WorkflowResult, WorkflowRunInput } from './workflow-types';
import { findWorkflow } from './workflows';

// Execution lifecycle: queued (10% of the duration) → running (progress rising in 5-point steps while the edit runs
// on sharp's thread pool) → completed (no earlier than the configured duration, and never before the edit is done)
// or failed with a reason, in which case the credits are refunded.

export type { ExecutionRecord, ExecutionStatus } from './execution-record';

export interface ExecutionDeps {
  accounts: Accounts;
  results: ResultStore;
  stats: StatsRecorder;
  imaging: Limiter;
  durationMs: () => number;
  resultTtlMs: () => number;
  now?: () => number;
  /** Keeps executions across sandboxes on one state folder (the embedded sandbox); none for a sandbox of its own. */
  ledger?: ExecutionLedger;
  /** A kept request's images fetched and decoded again, to run an execution taken over from a stopped sandbox. */
  prepare?: (request: ValidatedRequest) => Promise<WorkflowRunInput>;
  /** The bench's cost mode (reused-images.ts): each distinct edit computed once. */
  reuse?: ReusedImages;
}

export class Executions {
  private readonly records = new Map<string, ExecutionRecord>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly deps: ExecutionDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Creates an execution for an already charged request and schedules its lifecycle. */
  create(key: string, workflow: WorkflowDefinition, input: WorkflowRunInput, willFail: boolean, request?: ValidatedRequest): ExecutionRecord {
    const duration = this.deps.durationMs();
    const queuedMs = Math.round(duration * 0.1);
    const record: ExecutionRecord = {
      id: `exe_${randomBytes(10).toString('hex')}`,
      key,
      workflowId: workflow.id,
      status: 'queued',
      createdAt: this.now(),
      runningMs: duration - queuedMs,
      creditsCharged: workflow.creditCost,
      creditsRefunded: 0,
      resultUrls: [],
      resultLabels: [],
    };
    this.records.set(record.id, record);
    if (request) this.deps.ledger?.accepted(record, request);
    this.deps.stats.executionCreated(key, workflow.creditCost);
    this.later(queuedMs, () => this.start(record, workflow, input, willFail));
    return record;
  }

  /**
   * Takes over an execution a stopped sandbox charged and left unfinished (or finished with results only it held):
   * same id, same charge, run again from its request (`prepare` fetches and decodes the images again). Nothing is
   * charged again; if it cannot run, it fails and is refunded like any failed execution.
   */
  private adopt(persisted: PersistedExecution): ExecutionRecord {
    const workflow = findWorkflow(persisted.workflowId);
    const prepare = this.deps.prepare;
    const duration = this.deps.durationMs();
    const queuedMs = Math.round(duration * 0.1);
    const record: ExecutionRecord = {
      id: persisted.id, key: persisted.key, workflowId: persisted.workflowId, status: 'queued', createdAt: persisted.createdAt,
      runningMs: duration - queuedMs, creditsCharged: persisted.creditsCharged, creditsRefunded: 0, resultUrls: [], resultLabels: [],
    };
    this.records.set(record.id, record);
    if (persisted.status === 'failed') {
      // Already failed and refunded by the sandbox that ran it: said again as it was.
      Object.assign(record, {
        status: 'failed', startedAt: record.createdAt, finishedAt: record.createdAt, creditsRefunded: record.creditsCharged,
        error: { code: 'execution_failed', message: 'the execution failed (in a built-in sandbox that has since stopped); refunded' },
      });
      return record;
    }
    if (persisted.status === 'completed' && (persisted.request === null || (persisted.resultsExpireAt ?? 0) <= this.now())) {
      // Completed and paid, its results expired: as a real service says it, 410 on the result URL.
      const at = persisted.resultsExpireAt ?? record.createdAt;
      Object.assign(record, { status: 'completed', startedAt: record.createdAt, finishedAt: at, resultsExpireAt: at, resultUrls: [this.deps.results.goneUrl()], resultLabels: [null] });
      return record;
    }
    this.deps.accounts.occupySlot(record.key);
    this.deps.stats.executionCreated(record.key, 0);
    const request = persisted.request;
    if (!workflow || !request || !prepare) {
      // Failed at once (from queued): the stats count it as a start and a failure.
      record.startedAt = this.now();
      this.deps.stats.transition('queued', 'running');
      this.fail(record, 'execution_failed', 'the built-in sandbox that ran this execution stopped, and its request is gone: refunded');
      return record;
    }
    prepare(request).then(
      (input) => this.later(queuedMs, () => this.start(record, workflow, input, false)),
      (error: unknown) => {
        if (this.closed) return;
        record.startedAt = this.now();
        this.deps.stats.transition('queued', 'running');
        this.fail(record, 'processing_failed', `the image could not be processed again: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    return record;
  }

  /**
   * Only the key that created an execution can see it. One this sandbox never saw may be a stopped sandbox's on the
   * same state folder: then it is taken over here.
   */
  find(key: string, id: string): ExecutionRecord | undefined {
    const record = this.records.get(id);
    if (record) return record.key === key ? record : undefined;
    const orphan = this.closed ? null : this.deps.ledger?.claim(id, key);
    return orphan ? this.adopt(orphan) : undefined;
  }

  /** 0 while queued, 5-point steps up to 95 while running, 100 when completed; frozen where a failure stopped it. */
  progress(record: ExecutionRecord): number {
    if (record.status === 'completed') return 100;
    if (record.startedAt === undefined) return 0;
    const end = record.finishedAt ?? this.now();
    const share = record.runningMs > 0 ? (end - record.startedAt) / record.runningMs : 1;
    return Math.min(95, Math.max(0, Math.floor(share * 20) * 5));
  }

  private start(record: ExecutionRecord, workflow: WorkflowDefinition, input: WorkflowRunInput, willFail: boolean): void {
    record.status = 'running';
    record.startedAt = this.now();
    this.deps.stats.transition('queued', 'running');
    if (willFail) {
      // Injected failures happen halfway through, like a real job dying mid-run.
      this.later(Math.round(record.runningMs / 2), () =>
        this.fail(record, 'execution_failed', 'the workflow failed while processing (injected by the sandbox fault settings)'));
      return;
    }
    const earliestEnd = record.startedAt + record.runningMs;
    const edit = () => this.deps.imaging.run(() => workflow.run(input));
    (this.deps.reuse ? this.deps.reuse.run(workflow, input, edit) : edit()).then(
      (results) => {
        if (this.closed) return;
        const wait = earliestEnd - this.now();
        if (wait <= 0) this.complete(record, results);
        else this.later(wait, () => this.complete(record, results));
      },
      (error: unknown) => {
        if (this.closed) return;
        const reason = error instanceof Error ? error.message : String(error);
        this.fail(record, 'processing_failed', `the image could not be processed: ${reason}`);
      },
    );
  }

  private complete(record: ExecutionRecord, results: WorkflowResult[]): void {
    const ttl = this.deps.resultTtlMs();
    record.resultUrls = this.deps.results.add(results, ttl);
    record.resultLabels = results.map((result) => result.label ?? null);
    record.status = 'completed';
    record.finishedAt = this.now();
    record.resultsExpireAt = record.finishedAt + ttl;
    this.deps.stats.transition('running', 'completed');
    this.deps.accounts.release(record.key);
    this.deps.ledger?.finished(record);
  }

  private fail(record: ExecutionRecord, code: 'execution_failed' | 'processing_failed', message: string): void {
    record.status = 'failed';
    record.finishedAt = this.now();
    record.error = { code, message };
    record.creditsRefunded = record.creditsCharged;
    this.deps.accounts.refund(record.key, record.creditsCharged);
    this.deps.stats.refunded(record.creditsCharged);
    this.deps.stats.transition('running', 'failed');
    this.deps.accounts.release(record.key);
    this.deps.ledger?.finished(record);
  }

  private later(ms: number, action: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) action();
    }, ms);
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
