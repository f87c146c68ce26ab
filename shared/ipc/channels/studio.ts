import { z } from 'zod';
import { StudioConnectionTestSchema, StudioStatusSchema } from '../../studio/model';
import { invoke } from '../contract-kit';

// The shared studio ledger as the app sees it (docs/studio.md): test a URL, read the saved one's status, and keep
// its password in the OS keychain. The URL never carries a password (parseLedgerUrl refuses one).

const LedgerUrl = z.string().trim().min(1, 'enter the studio ledger URL (postgres://user@host:port/database)').max(2000);

export const StudioPasswordSavedSchema = z.object({
  /** The ledger's display URL: the keychain account the password was filed under. */
  ledger: z.string(),
  /**
   * Where a password that wins over the keychain's comes from on this machine (libpq's order: PGPASSWORD, then
   * ~/.pgpass), or null when the saved one is the one used.
   */
  shadowedBy: z.enum(['PGPASSWORD', 'pgpass']).nullable(),
});
export type StudioPasswordSaved = z.infer<typeof StudioPasswordSavedSchema>;

export const studioChannels = {
  /** Connects once to `url` (not necessarily saved yet) and says what it found; never joins the studio. */
  'studio:testConnection': invoke(z.object({ url: LedgerUrl }).strict(), StudioConnectionTestSchema),
  /** Instances, claims in flight and shared budgets of the ledger saved in settings (studioLedgerUrl). */
  'studio:status': invoke(z.object({}).strict(), StudioStatusSchema),
  /** The password travels renderer → main once, here, into the keychain; it is never stored in settings or sent back. */
  'studio:savePassword': invoke(z.object({ url: LedgerUrl, password: z.string().min(1, 'enter the password').max(1000) }).strict(), StudioPasswordSavedSchema),
  'studio:forgetPassword': invoke(z.object({ url: LedgerUrl }).strict(), z.object({ ledger: z.string(), removed: z.boolean() })),
} as const;
