import { z } from 'zod';
import { KeyStatusSchema } from '../../settings/key-status';
import { SettingsPatchSchema, SettingsSchema, SettingsWarningSchema } from '../../settings/schema';
import { event, invoke } from '../contract-kit';

const None = z.object({}).strict();

export const settingsChannels = {
  /** The key travels renderer → main exactly once, here; it is validated against the service before it is stored. */
  'key:set': invoke(
    z.object({ apiKey: z.string().trim().min(8, 'that is too short to be an API key'), serviceUrl: z.string().url().optional() }).strict(),
    KeyStatusSchema,
  ),
  /**
   * The user confirmed using the key saved for another service with the current one: it is checked against the
   * current service (and the transport rules) before it is stored for it; the key never passes through the renderer.
   */
  'key:reuse': invoke(z.object({ fromServiceUrl: z.string().url() }).strict(), KeyStatusSchema),
  /** The user confirmed sending the environment's key to the service now configured (it was first used elsewhere). */
  'key:allowOrigin': invoke(None, KeyStatusSchema),
  'key:delete': invoke(z.object({ serviceUrl: z.string().url().optional() }).strict(), KeyStatusSchema),
  'key:status': invoke(None, KeyStatusSchema),
  'settings:get': invoke(None, z.object({ settings: SettingsSchema, warnings: z.array(SettingsWarningSchema) })),
  'settings:update': invoke(z.object({ patch: SettingsPatchSchema }).strict(), SettingsSchema),
  'settings:changed': event(SettingsSchema),
} as const;
