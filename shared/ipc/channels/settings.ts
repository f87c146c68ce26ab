import { z } from 'zod';
import { KeyStatusSchema } from '../../settings/key-status';
import { SettingsPatchSchema, SettingsSchema, SettingsWarningSchema } from '../../settings/schema';
import { event, invoke } from '../contract-kit';

const None = z.object({}).strict();

/**
 * A key, or the photos, would go to a new origin: main asks the person at the machine (main/core/app/origin-consent.ts),
 * never the renderer. Both origins are named.
 */
export const ConsentRequestSchema = z.object({
  kind: z.enum(['move-key', 'trust-origin', 'change-service', 'change-ledger', 'ledger-plaintext']),
  from: z.string(),
  to: z.string(),
}).strict();
export type ConsentRequest = z.infer<typeof ConsentRequestSchema>;

export const settingsChannels = {
  /** The key travels renderer → main exactly once, here; it is validated against the service before it is stored. */
  'key:set': invoke(
    z.object({ apiKey: z.string().trim().min(8, 'that is too short to be an API key'), serviceUrl: z.string().url().optional() }).strict(),
    KeyStatusSchema,
  ),
  /**
   * Use the key saved for another service with the current one. Another origin needs main's confirmation (a native
   * dialog, or the terminal's code: consent:*); then it is checked against the current service (and the transport
   * rules) before it is stored for it; the key never passes through the renderer.
   */
  'key:reuse': invoke(z.object({ fromServiceUrl: z.string().url() }).strict(), KeyStatusSchema),
  /** Send the environment's key to the service now configured (first used elsewhere): main asks the user first. */
  'key:allowOrigin': invoke(None, KeyStatusSchema),
  'key:delete': invoke(z.object({ serviceUrl: z.string().url().optional() }).strict(), KeyStatusSchema),
  'key:status': invoke(None, KeyStatusSchema),
  'settings:get': invoke(None, z.object({ settings: SettingsSchema, warnings: z.array(SettingsWarningSchema) })),
  'settings:update': invoke(z.object({ patch: SettingsPatchSchema }).strict(), SettingsSchema),
  'settings:changed': event(SettingsSchema),
  /** A confirmation is open: `dialog` (Electron shows it) or `code` (the browser host printed one on its terminal). */
  'consent:requested': event(ConsentRequestSchema.extend({ via: z.enum(['dialog', 'code']) })),
  /** The code the user typed from the terminal. The renderer can only pass it on: it never sees the right one. */
  'consent:answer': invoke(
    z.object({ code: z.string().max(32) }).strict(),
    z.object({ accepted: z.boolean(), reason: z.enum(['wrong', 'none', 'expired', 'invalidated']).optional(), triesLeft: z.number().int().min(0).optional() }),
  ),
  /** The user gave up: the open question is refused at once (the renderer may refuse, never accept). */
  'consent:cancel': invoke(None, z.object({})),
} as const;
