import { z } from 'zod';
import { UpdateStatusSchema } from '../../update/model';
import { event, invoke } from '../contract-kit';

// Auto-update as the renderer sees it (docs/updates.md): the status, a check on demand, "Restart to update", and a
// push whenever the status changes. Hosts that do not update themselves answer state 'unavailable'.

export const updateChannels = {
  'update:status': invoke(z.object({}).strict(), UpdateStatusSchema),
  /** Checks the feed now (the app also checks at start and every few hours). */
  'update:check': invoke(z.object({}).strict(), UpdateStatusSchema),
  /** "Restart to update": quits and installs, unless work is in flight (then the status says it waits). */
  'update:install': invoke(z.object({}).strict(), UpdateStatusSchema),
  'update:changed': event(UpdateStatusSchema),
} as const;
