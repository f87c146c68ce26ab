import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../shared/canonical-json';
import type { WorkflowParameters } from '../../../shared/service/model';

export function parametersHash(parameters: WorkflowParameters): string {
  return createHash('sha256').update(canonicalJson(parameters)).digest('hex');
}

/** The ledger / duplicate key: same content, same workflow, same parameters → same result, pay once. */
export function ledgerKey(contentHash: string, workflowId: string, parametersHashValue: string): string {
  return createHash('sha256').update(`${contentHash}\n${workflowId}\n${parametersHashValue}`).digest('hex');
}
