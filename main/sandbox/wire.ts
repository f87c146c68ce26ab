import type { Account } from './accounts';
import type { ExecutionRecord, Executions } from './executions';
import type { WorkflowDefinition } from './workflow-types';

// The JSON the sandbox sends (documented field by field in docs/sandbox.md). Derived from the catalog model so the
// advertised schema and the enforced one cannot drift apart.

const iso = (ms: number): string => new Date(ms).toISOString();
/** Optional fields are omitted (not null) while they do not apply. */
const optional = <T>(name: string, value: T | undefined) => (value === undefined ? {} : { [name]: value });

export function workflowSummary(workflow: WorkflowDefinition) {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    tags: workflow.tags,
    creditCost: workflow.creditCost,
  };
}

export function workflowDetail(workflow: WorkflowDefinition) {
  const { imageFields, textFields, switchFields } = workflow.inputSchema;
  return {
    ...workflowSummary(workflow),
    aspectMode: workflow.aspectMode,
    results: workflow.results,
    inputSchema: {
      imageFields: imageFields.map((field) => ({ ...field })),
      textFields: textFields.map((field) => ({
        id: field.id,
        label: field.label,
        description: field.description,
        required: field.required,
        ...optional('presetOptions', field.presetOptions),
        ...optional('maxLength', field.presetOptions ? undefined : field.maxLength),
        ...optional('defaultValue', field.defaultValue),
      })),
      switchFields: switchFields.map((field) => ({
        id: field.id,
        label: field.label,
        description: field.description,
        required: field.minSelections > 0,
        multiple: field.maxSelections > 1,
        minSelections: field.minSelections,
        maxSelections: field.maxSelections,
        options: field.options,
        defaultSelection: field.defaultSelection,
      })),
    },
  };
}

export function executeAccepted(record: ExecutionRecord) {
  return {
    executionId: record.id,
    workflowId: record.workflowId,
    status: record.status,
    creditsCharged: record.creditsCharged,
    createdAt: iso(record.createdAt),
  };
}

export function executionView(record: ExecutionRecord, executions: Executions) {
  return {
    id: record.id,
    workflowId: record.workflowId,
    status: record.status,
    progress: executions.progress(record),
    resultUrls: record.resultUrls,
    // Each result with its label too, the way services that return several results name them.
    results: record.resultUrls.map((url, i) => ({ url, ...optional('label', record.resultLabels[i] ?? undefined) })),
    ...optional('resultsExpireAt', record.resultsExpireAt === undefined ? undefined : iso(record.resultsExpireAt)),
    ...optional('error', record.error?.message),
    ...optional('errorCode', record.error?.code),
    creditsCharged: record.creditsCharged,
    creditsRefunded: record.creditsRefunded,
    createdAt: iso(record.createdAt),
    ...optional('startedAt', record.startedAt === undefined ? undefined : iso(record.startedAt)),
    ...optional('finishedAt', record.finishedAt === undefined ? undefined : iso(record.finishedAt)),
  };
}

export function balanceView(apiCredits: number, account: Account) {
  return {
    apiCredits,
    webCredits: {
      total: account.webCredits.reduce((sum, entry) => sum + entry.credits, 0),
      breakdown: account.webCredits,
    },
  };
}
