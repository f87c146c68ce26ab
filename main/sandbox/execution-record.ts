// One sandbox execution as the sandbox keeps it (executions.ts runs it, execution-ledger.ts persists it).

export type ExecutionStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ExecutionRecord {
  id: string;
  key: string;
  workflowId: string;
  status: ExecutionStatus;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  /** Planned running time (duration minus the queued share). */
  runningMs: number;
  creditsCharged: number;
  creditsRefunded: number;
  resultUrls: string[];
  /** The label of each result (same order as resultUrls), null where the workflow gives none. */
  resultLabels: (string | null)[];
  resultsExpireAt?: number;
  error?: { code: 'execution_failed' | 'processing_failed'; message: string };
}
