import { z } from 'zod';
import {
  DryRunReportSchema, HotFolderActivitySchema, HotFolderConfigSchema, HotFolderStateSchema,
} from '../../hotfolders/model';
import { event, invoke } from '../contract-kit';

const FolderRef = z.object({ id: z.string().min(1) }).strict();

export const hotFolderChannels = {
  'hotFolders:list': invoke(z.object({}).strict(), z.array(HotFolderStateSchema)),
  /** Create or update (by id). Changing workflow or parameters does not make processed files eligible again. */
  'hotFolders:save': invoke(HotFolderConfigSchema, HotFolderStateSchema),
  'hotFolders:remove': invoke(FolderRef, z.object({ removed: z.boolean() })),
  'hotFolders:setArmed': invoke(z.object({ id: z.string().min(1), armed: z.boolean() }).strict(), HotFolderStateSchema),
  'hotFolders:dryRun': invoke(FolderRef, DryRunReportSchema),
  /** The user asks that files already processed with other settings become eligible again. */
  'hotFolders:reprocess': invoke(FolderRef, HotFolderStateSchema),
  'hotFolders:activity': event(HotFolderActivitySchema),
  'hotFolders:changed': event(z.array(HotFolderStateSchema)),
} as const;
