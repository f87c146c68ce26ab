import { z } from 'zod';

// What one deliverable makes of a paid result beyond format and colour: its size, an optional watermark, and the
// sub-folder it goes into. Part of a batch's output options (output-options.ts) and of a recipe's deliverables
// (shared/recipes/deliverable.ts), so a recipe can say nothing a batch cannot.

/** A content hash as specs and recipes carry it: so another machine can tell the same file from a different one. */
export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 content hash (64 lowercase hex digits)');

/**
 * The size of a deliverable: the paid result as it came (`original`), its long edge scaled to `longEdge`, or exactly
 * `width`×`height`, fitted inside (`contain`) or filled and cropped (`cover`). Never enlarged beyond the result.
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
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];

/** An image laid over the deliverable: `scale` is its width as a share of the deliverable's width. */
export const WatermarkSchema = z.object({
  path: z.string().min(1, 'must name the watermark image'),
  sha256: Sha256Schema,
  position: z.enum(WATERMARK_POSITIONS).default('bottom-right'),
  scale: z.number().gt(0, 'must be more than 0').max(1, 'must be at most 1 (the whole width)').default(0.2),
  opacity: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(0.6),
}).strict();
export type Watermark = z.infer<typeof WatermarkSchema>;

/** Tokens a deliverable's folder may use: the batch's job and client, and each photo's capture date. */
export const FOLDER_TOKENS = ['job', 'client', 'capture_date'] as const;

/**
 * A deliverable's sub-folder of the batch's output folder ('' = the output folder itself): relative, never climbing
 * out, with only FOLDER_TOKENS in braces.
 */
export const DeliverableFolderSchema = z.string().max(200).default('')
  .refine((f) => !/^([\\/]|[A-Za-z]:)/.test(f), 'must be a sub-folder of the output folder, not an absolute path')
  .refine((f) => !f.split(/[\\/]/).includes('..'), 'must not climb out of the output folder (..)')
  .refine((f) => [...f.matchAll(/\{([^}]*)\}/g)].every((m) => (FOLDER_TOKENS as readonly string[]).includes(m[1]!)) && !/[{}]/.test(f.replace(/\{[^}]*\}/g, '')),
    `may use only the tokens ${FOLDER_TOKENS.map((t) => `{${t}}`).join(', ')}`);
