import { z } from 'zod';

// The studio ledger as people see it: `batchroom studio status` and the app's studio panel.

export const StudioInstanceSchema = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number(),
  version: z.string(),
  label: z.string().nullable(),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  /** The lease has not run out (by the database's clock). */
  alive: z.boolean(),
  stopped: z.boolean(),
  processed: z.number(),
  failed: z.number(),
  creditsSpent: z.number(),
  inFlight: z.number(),
  /** Photos saved per minute over the last 5 minutes. */
  perMinute: z.number(),
});
export type StudioInstance = z.infer<typeof StudioInstanceSchema>;

export const StudioClaimSchema = z.object({
  folderKey: z.string(),
  relPath: z.string(),
  /** One of the claim table's in-flight states (shared/engine/claim-states.ts). */
  state: z.enum(['claimed', 'submitting', 'accepted']),
  owner: z.string().nullable(),
  executionId: z.string().nullable(),
  since: z.string(),
});
export type StudioClaim = z.infer<typeof StudioClaimSchema>;

export const StudioFolderSchema = z.object({
  folderKey: z.string(),
  budget: z.number().nullable(),
  creditsCommitted: z.number(),
  processed: z.number(),
  failed: z.number(),
});
export type StudioFolder = z.infer<typeof StudioFolderSchema>;

export const StudioStatusSchema = z.object({
  /** The ledger's URL without any secret. */
  ledger: z.string(),
  schemaVersion: z.number(),
  instances: z.array(StudioInstanceSchema),
  claimsInFlight: z.array(StudioClaimSchema),
  folders: z.array(StudioFolderSchema),
});
export type StudioStatus = z.infer<typeof StudioStatusSchema>;

export const StudioConnectionTestSchema = z.object({
  ok: z.boolean(),
  ledger: z.string(),
  message: z.string(),
  serverVersion: z.string().nullable(),
});
export type StudioConnectionTest = z.infer<typeof StudioConnectionTestSchema>;
