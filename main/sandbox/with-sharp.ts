import { loadSharp } from './imaging/sharp-loader';
import type { WorkflowDefinition } from './workflow-types';

/** The workflow, loading sharp before it runs (imaging/sharp-loader.ts: the pipeline builders it calls are synchronous). */
export function withSharp(workflow: WorkflowDefinition): WorkflowDefinition {
  return {
    ...workflow,
    run: async (input) => {
      await loadSharp();
      return workflow.run(input);
    },
  };
}
