import { z } from 'zod';
import { DeliverableFolderSchema, DeliverableSizeSchema, WatermarkSchema } from './deliverable-options';

export * from './deliverable-options';

// What a batch makes of each result on disk: its folder, name, format, quality, colour, metadata and sidecar, and how
// originals are encoded for upload. Part of the engine's model (model.ts re-exports it).

export const COLLISION_POLICIES = ['suffix', 'skip', 'overwrite'] as const;
export const CollisionPolicySchema = z.enum(COLLISION_POLICIES);
export type CollisionPolicy = z.infer<typeof CollisionPolicySchema>;

export const UPLOAD_SIZE_POLICIES = ['fit', 'original'] as const;
export const UploadSizePolicySchema = z.enum(UPLOAD_SIZE_POLICIES);
export type UploadSizePolicy = z.infer<typeof UploadSizePolicySchema>;

/** The naming template's tokens and rules live in shared/naming (the one namer). */
export const DEFAULT_NAMING_TEMPLATE = '{name}_{workflow}{ext}';

/**
 * What a result keeps of its original's metadata: `keep` (EXIF, IPTC, XMP, GPS; capture date, camera, copyright,
 * keywords…), `strip-gps` (the same without any location), `strip` (nothing but the colour profile and DPI).
 */
export const METADATA_POLICIES = ['keep', 'strip-gps', 'strip'] as const;
export const MetadataPolicySchema = z.enum(METADATA_POLICIES);
export type MetadataPolicy = z.infer<typeof MetadataPolicySchema>;

/**
 * The file format results are saved in. `source` follows the original: JPEG→JPEG, PNG→PNG, TIFF→TIFF, WebP→WebP,
 * anything else (HEIC, AVIF, GIF, RAW) → JPEG. Whatever the service returns is converted (docs/photo-pipeline.md).
 */
export const OUTPUT_FORMATS = ['source', 'jpeg', 'png', 'tiff', 'webp'] as const;
export const OutputFormatSchema = z.enum(OUTPUT_FORMATS);
export type OutputFormat = z.infer<typeof OutputFormatSchema>;
export const DEFAULT_JPEG_QUALITY = 92;
export const JpegQualitySchema = z.number().int().min(1).max(100);

/**
 * The colour space results are saved in: `srgb` (every result carries the sRGB profile), or `source` — back into the
 * original's profile when that was a wide one (Display P3, Adobe RGB, ProPhoto), else sRGB.
 */
export const COLOUR_POLICIES = ['srgb', 'source'] as const;
export const ColourPolicySchema = z.enum(COLOUR_POLICIES);
export type ColourPolicy = z.infer<typeof ColourPolicySchema>;

/** A provenance file next to each result: none, `<result>.json`, or a standard `<result stem>.xmp` catalogues read. */
export const SIDECAR_KINDS = ['none', 'json', 'xmp'] as const;
export const SidecarKindSchema = z.enum(SIDECAR_KINDS);
export type SidecarKind = z.infer<typeof SidecarKindSchema>;

/** The sidecar a batch (or the settings) asks for: `sidecar`, or JSON where only the older `sidecars: true` says so. */
export function sidecarKindOf(output: { sidecar?: SidecarKind | undefined; sidecars?: boolean | undefined }): SidecarKind {
  return (output.sidecar ?? 'none') === 'none' && output.sidecars ? 'json' : output.sidecar ?? 'none';
}

export const OutputOptionsSchema = z.object({
  /** Empty: a `Batchroom` folder next to the photos (resolved by the engine and returned in the estimate). */
  outputFolder: z.string().default(''),
  namingTemplate: z.string().min(1).default(DEFAULT_NAMING_TEMPLATE),
  collisionPolicy: CollisionPolicySchema.default('suffix'),
  /** Before `sidecar`: true meant a JSON sidecar (honoured while `sidecar` is 'none'). */
  sidecars: z.boolean().default(false),
  sidecar: SidecarKindSchema.default('none'),
  metadata: MetadataPolicySchema.default('keep'),
  format: OutputFormatSchema.default('source'),
  /** JPEG and WebP quality. */
  quality: JpegQualitySchema.default(DEFAULT_JPEG_QUALITY),
  colour: ColourPolicySchema.default('srgb'),
  /** The sub-folder of outputFolder the results go into (a recipe's deliverable folder; '' = outputFolder itself). */
  folder: DeliverableFolderSchema,
  size: DeliverableSizeSchema.default({ fit: 'original' }),
  watermark: WatermarkSchema.optional(),
});
export type OutputOptions = z.infer<typeof OutputOptionsSchema>;

export const EncodeOptionsSchema = z.object({
  uploadSizePolicy: UploadSizePolicySchema.default('fit'),
  stripMetadata: z.boolean().default(true),
});
export type EncodeOptions = z.infer<typeof EncodeOptionsSchema>;

/**
 * A further file made from each paid result, beside the batch's own output (its first deliverable): the batch's
 * output folder and collision policy, its own folder, name, format, size, colour, metadata, sidecar and watermark.
 */
export const ExtraDeliverableSchema = OutputOptionsSchema.pick({
  folder: true, namingTemplate: true, format: true, quality: true, size: true, colour: true, metadata: true, sidecar: true, watermark: true,
}).strict();
export type ExtraDeliverable = z.infer<typeof ExtraDeliverableSchema>;
/** Deliverables per batch (the output plus extras): each is a conversion and a write per result. */
export const MAX_DELIVERABLES = 8;

/** An extra deliverable with every default: what a batch with default output options saves. */
export const defaultDeliverableValues = (): ExtraDeliverable => ExtraDeliverableSchema.parse({});
