import { z } from 'zod';
import { WorkflowParametersSchema } from '../service/model';

// Chains (issue 32 #3): a recipe may run more than one workflow on each photo, one after the other. Step 1 is the
// recipe's own workflow and parameters; `steps` lists steps 2…N. Step n+1's photo field receives step n's result, sent
// by URL (the service downloads it itself), and the recipe's deliverables are made from the last step's result.

/** Steps in a chain at most (the recipe's own workflow included): each is paid for, so a chain stays short. */
export const MAX_CHAIN_STEPS = 4;

export const ChainStepSchema = z.object({
  workflowId: z.string({ error: 'is required' }).trim().min(1, 'must not be empty'),
  parameters: WorkflowParametersSchema.strict().default({}),
  /** The image field the previous step's result goes to (absent: the workflow's first image field). */
  imageField: z.string().min(1).optional(),
  /** The step's credit cost per photo when the recipe was saved (absent: unknown), to say when it changed. */
  seenCreditCost: z.number().nonnegative().optional(),
}).strict();
export type ChainStep = z.infer<typeof ChainStepSchema>;

/** A chain's steps 2…N (at most MAX_CHAIN_STEPS in all). */
export const ChainStepsSchema = z.array(ChainStepSchema)
  .max(MAX_CHAIN_STEPS - 1, `must list at most ${MAX_CHAIN_STEPS - 1} steps after the first (${MAX_CHAIN_STEPS} in all)`)
  .default([]);
