import { z } from 'zod';

/** A chain step's batch (BatchSpec.chain, issue 32 #3): which step of which chain run. */
export const ChainMarkSchema = z.object({
  /** The chain run: every step's batch of one run has it. */
  id: z.string().min(1),
  step: z.number().int().min(1),
  steps: z.number().int().min(2),
  /** Every step's workflow name, in order: "Step 2 of 3: Film effects". */
  names: z.array(z.string()).default([]),
  /** The intermediate results are saved in the output folder too (else only where the chain keeps them). */
  keep: z.boolean().default(false),
});
export type ChainMark = z.infer<typeof ChainMarkSchema>;

/** "Step 2 of 3: Film effects" (the name when known). */
export function describeChainStep(mark: Pick<ChainMark, 'step' | 'steps' | 'names'>): string {
  const name = mark.names[mark.step - 1];
  return `Step ${mark.step} of ${mark.steps}${name ? `: ${name}` : ''}`;
}
