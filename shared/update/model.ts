import { z } from 'zod';

// Auto-update (issue 33 #1, docs/updates.md): what a setting, the admin's policy file and the renderer's notice say
// about updates. Pure types and schemas; the policy and the downloads live in main/core/update.

export const UPDATE_CHANNELS = ['stable', 'beta'] as const;
export const UpdateChannelSchema = z.enum(UPDATE_CHANNELS);
export type UpdateChannel = z.infer<typeof UpdateChannelSchema>;

/** The file an admin drops next to the app (or in the machine-wide folder) to manage updates; it wins over Settings. */
export const UPDATE_POLICY_FILE = 'batchroom-policy.json';

/**
 * Where updates come from: the feed electron-builder publishes (latest.yml, latest-mac.yml, beta.yml …) on any web
 * server (`generic`), or a GitHub repository's releases. Null in settings: the feed built into the app.
 */
export const UpdateFeedSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('generic'), url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }) }).strict(),
  z.object({
    provider: z.literal('github'),
    owner: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/, 'a GitHub user or organisation name'),
    repo: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'a GitHub repository name'),
  }).strict(),
]);
export type UpdateFeed = z.infer<typeof UpdateFeedSchema>;

/**
 * `batchroom-policy.json`. Every field is optional: a field the admin sets wins over the user's setting, one left out
 * leaves the setting in charge. `stayOnThisVersion: true` means no update is downloaded or offered.
 */
export const UpdatePolicyFileSchema = z.object({
  stayOnThisVersion: z.boolean().optional(),
  channel: UpdateChannelSchema.optional(),
  feed: UpdateFeedSchema.optional(),
}).strict();
export type UpdatePolicyFile = z.infer<typeof UpdatePolicyFileSchema>;

export const UpdateReleaseSchema = z.object({
  version: z.string(),
  releaseName: z.string().nullable(),
  /** Plain text (HTML from a GitHub release is reduced to text by the core). */
  releaseNotes: z.string().nullable(),
  releaseDate: z.string().nullable(),
});
export type UpdateRelease = z.infer<typeof UpdateReleaseSchema>;

export const UPDATE_STATES = [
  /** This host does not update itself (the CLI, the browser host, a development build). */
  'unavailable',
  'idle', 'checking', 'up-to-date', 'downloading',
  /** Downloaded and verified, held back while a batch or an armed hot folder has work in flight. */
  'waiting',
  /** Downloaded and verified: "Restart to update" is offered. */
  'ready',
  'installing',
  /** "Stay on this version" (setting or policy file): a newer release may exist but is not downloaded. */
  'pinned',
  'failed',
] as const;
export const UpdateStateSchema = z.enum(UPDATE_STATES);
export type UpdateState = z.infer<typeof UpdateStateSchema>;

export const UpdateStatusSchema = z.object({
  state: UpdateStateSchema,
  currentVersion: z.string(),
  channel: UpdateChannelSchema,
  /** Who decided the channel and "stay on this version": the policy file wins over Settings. */
  managedBy: z.enum(['settings', 'policy']),
  stayOnThisVersion: z.boolean(),
  /** The newer release the feed offers (also while pinned, so the app can say one exists). */
  available: UpdateReleaseSchema.nullable(),
  /** Download progress 0–100 while downloading. */
  percent: z.number().min(0).max(100).nullable(),
  /** One sentence for the person: why it waits, why it failed, what pins it. */
  message: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;
