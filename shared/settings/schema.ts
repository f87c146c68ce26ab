import { z } from 'zod';
import {
  CollisionPolicySchema, ColourPolicySchema, DEFAULT_JPEG_QUALITY, DEFAULT_NAMING_TEMPLATE, JpegQualitySchema, MetadataPolicySchema, OutputFormatSchema,
  RawPairsSchema, SidecarKindSchema, UploadSizePolicySchema,
} from '../engine/model';
import { HotFolderConfigSchema } from '../hotfolders/model';
import { LanguageSettingSchema } from '../i18n/languages';
import { UpdateChannelSchema, UpdateFeedSchema } from '../update/model';
import { LIVE_SERVICE_URL } from './service-url';

export { isUnsetServiceUrl, LIVE_SERVICE_URL } from './service-url';

/**
 * Bumped whenever a stored key is renamed, removed or changes meaning; each bump comes with a migration in
 * `main/core/settings/migrations.ts`. v1 (0.0.x previews) → v2: see that file.
 */
export const SETTINGS_VERSION = 2;

/**
 * A postgres:// URL without a password, checked where settings are saved so a secret never lands in the settings
 * file (the ledger's own parser, main/core/studio/ledger-url.ts, says precisely what is wrong when it connects).
 */
const LEDGER_URL_SHAPE = /^postgres(?:ql)?:\/\/(?:([^@/?#]*)@)?[^@/?#]+\/[^/?#]+/i;
function isLedgerUrlShape(value: string): boolean {
  const match = LEDGER_URL_SHAPE.exec(value);
  // user:password@ — any colon in the user part is a password (an empty one included); ?password= is one too.
  return match !== null && !(match[1] ?? '').includes(':') && !/[?&]password=/i.test(value);
}

/** 'auto': the built-in sandbox when no key exists for the live service; 'always': sandbox only; 'never': live only. */
export const SANDBOX_MODES = ['auto', 'always', 'never'] as const;
export const SandboxModeSchema = z.enum(SANDBOX_MODES);
export type SandboxMode = z.infer<typeof SandboxModeSchema>;

export const THEMES = ['system', 'light', 'dark'] as const;
export const ThemeSchema = z.enum(THEMES);
export type Theme = z.infer<typeof ThemeSchema>;

export const MIN_CONCURRENCY = 1;
export const MAX_CONCURRENCY = 32;

export const ServiceUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/**
 * Every stored key with its default. Kept as a plain shape so the store can validate key by key: a hand-edited
 * file with one bad value loses that value only.
 */
export const SETTINGS_FIELDS = {
  serviceUrl: ServiceUrlSchema.default(LIVE_SERVICE_URL),
  sandboxMode: SandboxModeSchema.default('auto'),
  /** Executions in flight at once (the engine's worker pool). */
  concurrency: z.number().int().min(MIN_CONCURRENCY).max(MAX_CONCURRENCY).default(4),
  /**
   * Where new batches save results: null (the default) is a `Batchroom` folder next to the photos, as Lightroom and
   * Capture One export next to the originals; a path is one fixed folder. Each batch can still choose another.
   */
  outputFolder: z.string().min(1).nullable().default(null),
  /** Tokens: {name} {ext} {workflow} {index} {n} {date} {time} {execution} (see NAMING_TOKENS). */
  namingTemplate: z.string().min(1).default(DEFAULT_NAMING_TEMPLATE),
  collisionPolicy: CollisionPolicySchema.default('suffix'),
  /** 'fit': downscale uploads to what the requested output needs; 'original': send files as they are. */
  uploadSizePolicy: UploadSizePolicySchema.default('fit'),
  /** Strip EXIF/GPS from uploads (the service never needs the photographer's location). */
  stripMetadata: z.boolean().default(true),
  /** Write a `<result>.json` sidecar (workflow, parameters, source) next to each result. */
  sidecars: z.boolean().default(false),
  /**
   * A provenance sidecar next to each result: none, `<result>.json` or a standard `<result stem>.xmp`. The older
   * `sidecars: true` still means `json` while this is 'none' (sidecarKindOf).
   */
  sidecar: SidecarKindSchema.default('none'),
  /** What results keep of their originals' metadata (docs/photo-pipeline.md). */
  metadataPolicy: MetadataPolicySchema.default('keep'),
  /** The format results are saved in (`source`: the original's, HEIC/AVIF/RAW as JPEG). */
  outputFormat: OutputFormatSchema.default('source'),
  jpegQuality: JpegQualitySchema.default(DEFAULT_JPEG_QUALITY),
  /** sRGB, or back into the original's wide profile (P3, Adobe RGB, ProPhoto). */
  colourPolicy: ColourPolicySchema.default('srgb'),
  /** RAW+JPEG pairs (same name, same folder) are one photo: edited from the JPEG, the RAW's preview, or both. */
  rawPairs: RawPairsSchema.default('jpeg'),
  theme: ThemeSchema.default('system'),
  /** The app's language: 'system' follows the OS's preferred languages (shared/i18n/languages.ts, docs/i18n.md). */
  language: LanguageSettingSchema.default('system'),
  /**
   * Size cap, in MB, of the result cache in the state folder: paid results are kept there until they are saved, so a
   * full or unplugged output disk never costs a result (docs/engine.md). Saved ones are evicted oldest first; 0 keeps
   * none (a refused result is then downloaded again while the service still has it).
   */
  resultCacheMb: z.number().int().min(0).max(1_048_576).default(2048),
  /** Warn when the API credit balance falls below this many credits; 0 never warns. */
  lowBalanceWarning: z.number().finite().nonnegative().default(50),
  /**
   * Say when a batch or hot-folder run ends or pauses for the user (a notification in the app, a Web Notification in
   * the browser once allowed, the terminal bell after `run`/`resume`): shared/notify/attention.ts decides what.
   */
  notifyWhenDone: z.boolean().default(true),
  hotFolders: z.array(HotFolderConfigSchema).default([]),
  /**
   * Studio mode (docs/studio.md): hot folders claim each photo in this shared PostgreSQL ledger, so several machines
   * on one folder process it once. No password here: PGPASSWORD, ~/.pgpass or the keychain.
   */
  studioLedgerUrl: z.string().trim().min(1).refine(isLedgerUrlShape, {
    message: 'enter postgres://user@host:port/database, with no password in it (save the password separately)',
  }).nullable().default(null),
  /**
   * Allow a studio ledger on another machine without TLS (no sslmode=require in its URL). Off: the password and
   * every claim would cross the network in clear text; Settings warns before this is switched on.
   */
  studioLedgerAllowPlaintext: z.boolean().default(false),
  /** Auto-update (docs/updates.md): stable or beta releases. batchroom-policy.json, when it sets one, wins. */
  updateChannel: UpdateChannelSchema.default('stable'),
  /** "Stay on this version": no update is downloaded or offered (studios pin a tested version). */
  updateStayOnThisVersion: z.boolean().default(false),
  /** Where updates come from (a generic feed URL or a GitHub repository); null: the feed built into the app. */
  updateFeed: UpdateFeedSchema.nullable().default(null),
} as const;

export type SettingsKey = keyof typeof SETTINGS_FIELDS;
export const SETTINGS_KEYS = Object.keys(SETTINGS_FIELDS) as SettingsKey[];

export const SettingsSchema = z.object(SETTINGS_FIELDS);
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = Object.freeze(SettingsSchema.parse({}));

/**
 * The argument of `settings:update`: any subset of keys, each fully valid, nothing unknown. Built from the
 * fields without their defaults, so an absent key means "unchanged" rather than "reset to default".
 */
const patchShape = Object.fromEntries(
  SETTINGS_KEYS.map((key) => [key, SETTINGS_FIELDS[key].unwrap().optional()]),
) as { [K in SettingsKey]: z.ZodOptional<ReturnType<(typeof SETTINGS_FIELDS)[K]['unwrap']>> };
export const SettingsPatchSchema = z.strictObject(patchShape);
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;
export type SettingsPatchInput = z.input<typeof SettingsPatchSchema>;

/** One thing the store had to repair while loading (shown once in the app, printed by the CLI). */
export const SettingsWarningSchema = z.object({
  kind: z.enum(['corrupt-file', 'invalid-value', 'unknown-key', 'migrated', 'newer-version', 'unreadable']),
  /** The settings key concerned, when there is one. */
  key: z.string().nullable(),
  message: z.string(),
  /** Where the original file was copied before repairing it. */
  backupPath: z.string().nullable(),
});
export type SettingsWarning = z.infer<typeof SettingsWarningSchema>;
