import { createHash } from 'node:crypto';
import type { WorkflowParameters } from '../../../shared/service/model';

/** JSON with object keys sorted, so equal parameters hash equally whatever order they were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function parametersHash(parameters: WorkflowParameters): string {
  return createHash('sha256').update(canonicalJson(parameters)).digest('hex');
}

/** The ledger / duplicate key: same content, same workflow, same parameters → same result, pay once. */
export function ledgerKey(contentHash: string, workflowId: string, parametersHashValue: string): string {
  return createHash('sha256').update(`${contentHash}\n${workflowId}\n${parametersHashValue}`).digest('hex');
}
