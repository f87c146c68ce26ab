import { z } from 'zod';

/** Where the API key in use came from ('none': no key, so the sandbox or an error). */
export const KEY_SOURCES = ['keychain', 'env', 'flag', 'none'] as const;
export const KeySourceSchema = z.enum(KEY_SOURCES);
export type KeySource = z.infer<typeof KeySourceSchema>;
export type ActiveKeySource = Exclude<KeySource, 'none'>;

/** Why Batchroom runs against the built-in sandbox instead of a live service. */
export const SANDBOX_REASONS = ['no-key', 'sandbox-mode-always', 'keychain-unavailable'] as const;
export const SandboxReasonSchema = z.enum(SANDBOX_REASONS);
export type SandboxReason = z.infer<typeof SandboxReasonSchema>;

/**
 * What the renderer (and `batchroom key status`) may know about the key: its masked form and where it came from.
 * The key itself never crosses this boundary. Field names match `key:*` in shared/ipc/channels/settings.ts, plus
 * `mode` and `sandboxReason`.
 */
export const KeyStatusSchema = z.object({
  /** 'sandbox': Batchroom talks to its built-in sandbox (no key for the live service, or sandbox mode "always"). */
  mode: z.enum(['live', 'sandbox']),
  /** The live service URL (normalized), also shown in sandbox mode so the user knows which key is missing. */
  serviceUrl: z.string(),
  hasKey: z.boolean(),
  /** `sk_live_…abcd`, or null when no key is in use. */
  keyMasked: z.string().nullable(),
  source: KeySourceSchema,
  sandboxReason: SandboxReasonSchema.nullable(),
  /** False when no Secret Service / keychain is reachable; `message` then says how to fix it. */
  keychainAvailable: z.boolean(),
  /** A sentence for people: which key is used, why sandbox, or how to get out of a missing keychain. */
  message: z.string(),
  /**
   * Keys stored for other service URLs (masked). A key is bound to the service it was saved for: after the service
   * URL changes, one of these is used for the new service only when the user confirms (`key:reuse`).
   */
  otherServiceKeys: z.array(z.object({ serviceUrl: z.string(), keyMasked: z.string() })).default([]),
  /** The key from the environment (or --api-key) was first used with another service origin: sent again only after
   * the user confirms this one (`key:allowOrigin`). */
  awaitingOriginConfirmation: z.boolean().default(false),
});
export type KeyStatus = z.infer<typeof KeyStatusSchema>;
