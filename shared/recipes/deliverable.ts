import { z } from 'zod';
import { defaultDeliverableValues, ExtraDeliverableSchema } from '../engine/model';
import { templateProblems } from '../naming';

export {
  DeliverableSizeSchema, Sha256Schema, WatermarkSchema, WATERMARK_POSITIONS, type DeliverableSize, type Watermark,
} from '../engine/model';

/**
 * One file made from each paid result: a batch's extra deliverable exactly (shared/engine/output-options.ts), so a
 * recipe can mean nothing a batch cannot; checked against the one namer's rules too.
 */
export const DeliverableSchema = ExtraDeliverableSchema.superRefine((deliverable, ctx) => {
  // The one namer's own rules, so a recipe never carries a template the form would refuse.
  for (const problem of templateProblems(deliverable.namingTemplate)) ctx.addIssue({ code: 'custom', path: ['namingTemplate'], message: problem });
});
export type Deliverable = z.infer<typeof DeliverableSchema>;

/** The deliverable a recipe has when it names none: what a batch with default output options saves. */
export const defaultDeliverable = (): Deliverable => DeliverableSchema.parse(defaultDeliverableValues());
