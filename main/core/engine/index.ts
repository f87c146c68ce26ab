export { createEngine, type AdoptedExecution, type Engine, type EngineOptions } from './engine';
export type { SubmitHooks } from './submit-hooks';
export { createBatchHandlers } from './ipc-handlers';
export type { EngineStats } from './runner';
export type { ProgressListener } from './events';
