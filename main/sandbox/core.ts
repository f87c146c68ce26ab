import { Accounts } from './accounts';
import { memoryCreditLedger, sqliteCreditLedger, type CreditLedger } from './credit-ledger';
import { sqliteExecutionLedger, type ExecutionLedger } from './execution-ledger';
import { Executions } from './executions';
import { resolveImage } from './inputs';
import { FaultInjector } from './faults';
import { Limiter } from './limiter';
import type { OutageControl } from './outage';
import { mergeFaults, type FaultSettings, type SandboxLimits } from './options';
import { ResultStore } from './results';
import { ReusedImages, type ImageWork } from './reused-images';
import { StatsRecorder } from './stats';
import type { ValidatedRequest } from './validate';
import type { WorkflowRunInput } from './workflow-types';

// Everything the request handlers share, built once per running sandbox.

export interface CoreSettings {
  origin: string;
  credits: number;
  /** A SQLite file that keeps every key's balance across starts and processes (else: in memory). */
  creditsFile?: string;
  seed: number;
  executionDurationMs: number;
  resultTtlMs: number;
  faults: FaultSettings;
  limits: SandboxLimits;
  /** 'reused': each distinct input size decoded and edited once (benches: reused-images.ts). Default 'full'. */
  imageWork?: ImageWork;
}

export class SandboxCore {
  readonly faults: FaultInjector;
  readonly accounts: Accounts;
  readonly results: ResultStore;
  readonly stats = new StatsRecorder();
  readonly executions: Executions;
  /** Every workflow edit goes through this. */
  readonly imaging: Limiter;
  /** Set only in the bench's cost mode (reused-images.ts). */
  readonly reuse: ReusedImages | undefined;
  private currentLimits: SandboxLimits;
  private readonly ledger: CreditLedger;
  private readonly executionLedger: ExecutionLedger | undefined;
  /** Set by startSandbox once the server listens (the outage simulation needs the server itself). */
  outage: OutageControl | null = null;

  constructor(readonly settings: CoreSettings) {
    this.currentLimits = settings.limits;
    this.stats.startMonitoring();
    this.imaging = new Limiter(() => this.currentLimits.imageConcurrency);
    this.faults = new FaultInjector(settings.seed, settings.faults);
    this.ledger = settings.creditsFile
      ? sqliteCreditLedger({ path: settings.creditsFile, startCredits: settings.credits })
      : memoryCreditLedger(settings.credits);
    this.accounts = new Accounts(this.ledger, () => this.currentLimits);
    this.results = new ResultStore(settings.origin, () => this.currentLimits.maxStoredResultBytes);
    this.reuse = settings.imageWork === 'reused' ? new ReusedImages() : undefined;
    this.executionLedger = settings.creditsFile ? sqliteExecutionLedger(settings.creditsFile) : undefined;
    this.executions = new Executions({
      accounts: this.accounts,
      results: this.results,
      stats: this.stats,
      imaging: this.imaging,
      ...(this.reuse ? { reuse: this.reuse } : {}),
      durationMs: () => settings.executionDurationMs,
      resultTtlMs: () => settings.resultTtlMs,
      ...(this.executionLedger ? { ledger: this.executionLedger, prepare: (request: ValidatedRequest) => this.prepare(request) } : {}),
    });
  }

  /** A kept request's images fetched and decoded again, as when it was accepted. */
  private async prepare(request: ValidatedRequest): Promise<WorkflowRunInput> {
    const limits = this.currentLimits;
    const entries = await Promise.all(Object.entries(request.images).map(async ([id, value]) => [id, await resolveImage(`images.${id}`, value, limits, this.results, this.reuse)] as const));
    return { images: Object.fromEntries(entries), texts: request.texts, switches: request.switches, output: request.output };
  }

  limits(): SandboxLimits {
    return this.currentLimits;
  }

  setLimits(next: SandboxLimits): void {
    this.currentLimits = next;
  }

  setFaults(update: Partial<FaultSettings>): FaultSettings {
    const next = mergeFaults(this.faults.current, update);
    this.faults.set(next);
    return next;
  }

  close(): void {
    this.outage?.close();
    this.stats.stopMonitoring();
    this.executions.close();
    this.results.close();
    this.ledger.close();
    this.executionLedger?.close();
  }
}
