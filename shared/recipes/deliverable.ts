import { z } from 'zod';
import {
  ColourPolicySchema, DEFAULT_JPEG_QUALITY, JpegQualitySchema, MetadataPolicySchema, OutputFormatSchema, OutputOptionsSchema,
  SidecarKindSchema,
} from '../engine/model';
import { templateProblems } from '../naming';

/** A content hash as recipes carry it: so another machine can tell the same file from a different one at the same path. */
export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 content hash (64 lowercase hex digits)');

/**
 * The size of a deliverable: the paid result as it came (`original`), its long edge scaled to `longEdge`, or exactly
 * `width`×`height`, fitted inside (`contain`) or filled and cropped (`cover`). Only `original` is made today
 * (issue 32 item 2 makes the others); the shape is fixed now so recipes saved today stay valid then.
 */
const PixelsSchema = z.number().int().min(16, 'must be at least 16 px').max(65_535, 'must be at most 65,535 px');
export const DeliverableSizeSchema = z.discriminatedUnion('fit', [
  z.object({ fit: z.literal('original') }).strict(),
  z.object({ fit: z.literal('long-edge'), longEdge: PixelsSchema }).strict(),
  z.object({ fit: z.enum(['contain', 'cover']), width: PixelsSchema, height: PixelsSchema }).strict(),
], { error: 'must say its fit: original, long-edge (with longEdge) or contain/cover (with width and height)' });
export type DeliverableSize = z.infer<typeof DeliverableSizeSchema>;

export const WATERMARK_POSITIONS = [
  'top-left', 'top', 'top-right', 'left', 'centre', 'right', 'bottom-left', 'bottom', 'bottom-right',
] as const;

/** An image laid over the deliverable: `scale` is its width as a share of the deliverable's width. */
export const WatermarkSchema = z.object({
  path: z.string().min(1, 'must name the watermark image'),
  sha256: Sha256Schema,
  position: z.enum(WATERMARK_POSITIONS).default('bottom-right'),
  scale: z.number().gt(0, 'must be more than 0').max(1, 'must be at most 1 (the whole width)').default(0.2),
  opacity: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(0.6),
}).strict();
export type Watermark = z.infer<typeof WatermarkSchema>;

/**
 * One file made from each paid result. `folder` is a sub-folder of the batch's output folder ('' = the output folder
 * itself); the output options reuse the batch spec's schemas so a recipe can mean nothing a batch cannot.
 */
export const DeliverableSchema = z.object({
  folder: z.string().default('')
    .refine((f) => !/^([\\/]|[A-Za-z]:)/.test(f), 'must be a sub-folder of the output folder, not an absolute path')
    .refine((f) => !f.split(/[\\/]/).includes('..'), 'must not climb out of the output folder (..)')
    .refine((f) => !/[{}]/.test(f), 'folder tokens such as {job} are not supported yet'),
  namingTemplate: OutputOptionsSchema.shape.namingTemplate,
  format: OutputFormatSchema.default('source'),
  quality: JpegQualitySchema.default(DEFAULT_JPEG_QUALITY),
  size: DeliverableSizeSchema.default({ fit: 'original' }),
  colour: ColourPolicySchema.default('srgb'),
  metadata: MetadataPolicySchema.default('keep'),
  sidecar: SidecarKindSchema.default('none'),
  watermark: WatermarkSchema.optional(),
}).strict().superRefine((deliverable, ctx) => {
  // The one namer's own rules, so a recipe never carries a template the form would refuse.
  for (const problem of templateProblems(deliverable.namingTemplate)) ctx.addIssue({ code: 'custom', path: ['namingTemplate'], message: problem });
});
export type Deliverable = z.infer<typeof DeliverableSchema>;

/** The deliverable a recipe has when it names none: what a batch with default output options saves. */
export const defaultDeliverable = (): Deliverable => DeliverableSchema.parse({});
