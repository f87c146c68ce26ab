export type { NormalizeContext } from './context';
export { normalizeWorkflowList, normalizeWorkflowPage, normalizeWorkflowDetail } from './workflow';
export { normalizeInputSchema } from './input-schema';
export { normalizeExecution, executionIdOf, mapStatus } from './execution';
export { normalizeBalance } from './balance';
export { canonicalKey, pick, toNumber } from './wire';
