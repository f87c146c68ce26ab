export { createEngine, type Engine, type EngineOptions } from './engine';
export { createBatchHandlers } from './ipc-handlers';
export type { EngineStats } from './runner';
export type { ProgressListener } from './events';
