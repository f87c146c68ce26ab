import type { BatchSpec, BatchState, ItemState, PauseCode, Verdict } from '../../../shared/engine/model';
import type { WorkflowDetail } from '../../../shared/service/model';
import type { BatchRecord, ExecutionRecord, ItemPatch, ItemRecord, LedgerEntry } from './types';

// Row ↔ record mapping. libsql rows carry an extra `_metadata` field, so every query names its columns and every
// row goes through one of these mappers rather than being spread into a record.

type Row = Record<string, unknown>;

export const BATCH_COLUMNS = 'id, spec_json, workflow_json, credit_cost, state, paused_reason, pause_code, created_at, updated_at, credits_spent, budget, output_folder, priority, queue_order';
export const ITEM_COLUMNS = `id, batch_id, position, display_name, sources_json, rel_dir, content_hash, state, progress, reason, execution_id,
  result_urls_json, result_labels_json, outputs_json, pending_temp, pending_final, credits_charged, verdict, attempts, submitted_at, completed_at, updated_at, attention, claim_key, pay_again_over`;

const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => Number(v ?? 0);

export function mapBatch(row: Row): BatchRecord {
  return {
    id: str(row.id),
    spec: JSON.parse(str(row.spec_json)) as BatchSpec,
    workflow: JSON.parse(str(row.workflow_json)) as WorkflowDetail,
    creditCost: num(row.credit_cost),
    state: str(row.state) as BatchState,
    pausedReason: strOrNull(row.paused_reason),
    pauseCode: strOrNull(row.pause_code) as PauseCode | null,
    createdAt: str(row.created_at),
    updatedAt: str(row.updated_at),
    creditsSpent: num(row.credits_spent),
    budget: row.budget === null || row.budget === undefined ? null : Number(row.budget),
    outputFolder: str(row.output_folder),
    priority: num(row.priority),
    queueOrder: num(row.queue_order),
  };
}

export function mapItem(row: Row): ItemRecord {
  return {
    id: str(row.id),
    batchId: str(row.batch_id),
    position: num(row.position),
    displayName: str(row.display_name),
    sources: JSON.parse(str(row.sources_json)) as Record<string, string>,
    relDir: str(row.rel_dir ?? ''),
    contentHash: strOrNull(row.content_hash),
    claimKey: strOrNull(row.claim_key),
    payAgainOver: strOrNull(row.pay_again_over),
    state: str(row.state) as ItemState,
    progress: num(row.progress),
    reason: strOrNull(row.reason),
    executionId: strOrNull(row.execution_id),
    resultUrls: JSON.parse(str(row.result_urls_json ?? '[]')) as string[],
    resultLabels: JSON.parse(str(row.result_labels_json ?? '[]')) as (string | null)[],
    outputs: JSON.parse(str(row.outputs_json ?? '[]')) as string[],
    pendingTemp: strOrNull(row.pending_temp),
    pendingFinal: strOrNull(row.pending_final),
    creditsCharged: num(row.credits_charged),
    verdict: strOrNull(row.verdict) as Verdict,
    attempts: num(row.attempts),
    submittedAt: strOrNull(row.submitted_at),
    completedAt: strOrNull(row.completed_at),
    updatedAt: str(row.updated_at),
    attention: strOrNull(row.attention),
  };
}

export function mapExecution(row: Row): ExecutionRecord {
  return {
    id: str(row.id), itemId: str(row.item_id), batchId: str(row.batch_id), createdAt: str(row.created_at),
    status: str(row.status), credits: num(row.credits), error: strOrNull(row.error), completedAt: strOrNull(row.completed_at),
  };
}

export function mapLedger(row: Row): LedgerEntry {
  return {
    key: str(row.key), contentHash: str(row.content_hash), workflowId: str(row.workflow_id), parametersHash: str(row.parameters_hash),
    sourcePath: str(row.source_path), outcome: str(row.outcome) as LedgerEntry['outcome'],
    outputs: JSON.parse(str(row.outputs_json ?? '[]')) as string[], executionId: strOrNull(row.execution_id),
    itemId: strOrNull(row.item_id), hotFolderId: strOrNull(row.hot_folder_id), recordedAt: str(row.recorded_at),
  };
}

const json = (v: unknown) => JSON.stringify(v);

/** Item fields the engine may patch, with their column and encoding. */
export const ITEM_PATCH_COLUMNS: { [K in keyof ItemPatch]-?: { name: string; encode?: (v: unknown) => unknown } } = {
  position: { name: 'position' },
  displayName: { name: 'display_name' },
  sources: { name: 'sources_json', encode: json },
  relDir: { name: 'rel_dir' },
  contentHash: { name: 'content_hash' },
  progress: { name: 'progress' },
  reason: { name: 'reason' },
  executionId: { name: 'execution_id' },
  resultUrls: { name: 'result_urls_json', encode: json },
  resultLabels: { name: 'result_labels_json', encode: json },
  outputs: { name: 'outputs_json', encode: json },
  pendingTemp: { name: 'pending_temp' },
  pendingFinal: { name: 'pending_final' },
  creditsCharged: { name: 'credits_charged' },
  verdict: { name: 'verdict' },
  attempts: { name: 'attempts' },
  submittedAt: { name: 'submitted_at' },
  completedAt: { name: 'completed_at' },
  attention: { name: 'attention' },
};
