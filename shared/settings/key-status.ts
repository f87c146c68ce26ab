import { z } from 'zod';

/** Where the API key in use came from. */
export const KEY_SOURCES = ['env', 'flag', 'keychain'] as const;
export const KeySourceSchema = z.enum(KEY_SOURCES);
export type KeySource = z.infer<typeof KeySourceSchema>;

/** Why Batchroom runs against the built-in sandbox instead of a live service. */
export const SANDBOX_REASONS = ['no-key', 'sandbox-mode-always', 'keychain-unavailable'] as const;
export const SandboxReasonSchema = z.enum(SANDBOX_REASONS);
export type SandboxReason = z.infer<typeof SandboxReasonSchema>;

/**
 * What the renderer (and `batchroom key status`) may know about the key: its masked form and where it came from.
 * The key itself never crosses this boundary.
 */
export const KeyStatusSchema = z.object({
  mode: z.enum(['live', 'sandbox']),
  /** The live service URL from settings (normalized), also shown in sandbox mode so the user knows what is missing. */
  serviceUrl: z.string(),
  /** `sk_live_…abcd`, or null when no key is in use. */
  maskedKey: z.string().nullable(),
  source: KeySourceSchema.nullable(),
  sandboxReason: SandboxReasonSchema.nullable(),
  keychain: z.enum(['available', 'unavailable']),
  /** A sentence for people: why sandbox, or how to get out of a missing keychain. */
  message: z.string(),
});
export type KeyStatus = z.infer<typeof KeyStatusSchema>;
