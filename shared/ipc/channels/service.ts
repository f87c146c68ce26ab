import { z } from 'zod';
import { BalanceSchema, WorkflowCatalogSchema, WorkflowDetailSchema } from '../../service/model';
import { SandboxReasonSchema } from '../../settings/key-status';
import { event, invoke } from '../contract-kit';

export const ServiceStatusSchema = z.object({
  mode: z.enum(['sandbox', 'live']),
  serviceUrl: z.string(),
  /** Masked form only (`sk_live_…abcd`); the key itself never reaches the renderer. */
  keyMasked: z.string().nullable(),
  keySource: z.enum(['keychain', 'env', 'flag', 'sandbox', 'none']),
  /** Why the sandbox is in use (sandbox mode only): hosts word their own notice from it, never from `message`. */
  sandboxReason: SandboxReasonSchema.optional(),
  /** Plain-language explanation, e.g. "No API key set: using the built-in sandbox." */
  message: z.string(),
});
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

const None = z.object({}).strict();

export const serviceChannels = {
  'workflows:list': invoke(z.object({ tag: z.string().min(1).optional() }).strict(), WorkflowCatalogSchema),
  'workflows:get': invoke(z.object({ id: z.string().min(1) }).strict(), WorkflowDetailSchema),
  'balance:get': invoke(None, BalanceSchema),
  'balance:changed': event(BalanceSchema),
  'service:status': invoke(None, ServiceStatusSchema),
  'service:changed': event(ServiceStatusSchema),
} as const;
