import type {
  Balance, ExecuteRequest, Execution, WorkflowCatalog, WorkflowDetail,
} from '../../../shared/service/model';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Per-request timeout; the client's default applies when absent. */
  timeoutMs?: number;
}

/**
 * What an execute call can come back with. Rejections the service answered (validation, credits, auth…) are thrown
 * as AppError/ServiceError: nothing was charged. `unknown` means the request may have reached the service and been
 * charged but its answer was lost (timeout or reset after the body was sent): callers must NOT resubmit on their own.
 */
export type ExecuteOutcome =
  | { kind: 'accepted'; executionId: string }
  | { kind: 'unknown'; reason: string };

export interface ExecutionPoll extends Execution {
  /** The service asked us to wait this long before the next poll (Retry-After), if it said so. */
  retryAfterMs?: number;
}

/** The one way Batchroom talks to the service (implemented in main/core/service/client.ts). */
export interface ServiceClient {
  readonly baseUrl: string;
  /**
   * Stands for the service and key this client's requests go to right now: the same object for as long as they stay
   * the same, another one after a key or service change (a forwarding client answers its current target's). What was
   * read from the service (a price, a balance) holds only for the account it came from: compare this, not the client.
   */
  readonly account: object;
  /**
   * A stable, secret-free name of the service and key (service/account-id.ts), kept in the journal's claims so a unit
   * paid from one account is followed only by items paid from the same one. Absent: the service URL stands for it.
   */
  readonly accountId?: string;
  /** Every page the service lists; `warning` when the listing had to stop while the service said more exist. */
  listWorkflows(query?: { tag?: string }, options?: RequestOptions): Promise<WorkflowCatalog>;
  getWorkflow(id: string, options?: RequestOptions): Promise<WorkflowDetail>;
  /** Validates locally against the workflow's input schema first; a request the service would reject is never sent. */
  execute(workflow: WorkflowDetail, request: ExecuteRequest, options?: RequestOptions): Promise<ExecuteOutcome>;
  getExecution(id: string, options?: RequestOptions): Promise<ExecutionPoll>;
  getBalance(options?: RequestOptions): Promise<Balance>;
  /** GET a result URL (Authorization is sent only to the service's own origin). Throws on non-2xx. */
  downloadResult(url: string, options?: RequestOptions): Promise<Response>;
}
