import { z } from 'zod';
import { AttentionSchema } from '../../notify/attention';
import { event, invoke } from '../contract-kit';

const PathArg = z.object({ path: z.string().min(1) }).strict();

/** What a path the user typed is, as the batch would take it: a photo, a folder to look in, or neither and why. */
export const PATH_KINDS = ['photo', 'folder', 'missing', 'not-photo', 'unreadable'] as const;
export const PathKindSchema = z.enum(PATH_KINDS);
export type PathKind = z.infer<typeof PathKindSchema>;
/** The most paths one files:checkPaths asks about (a drop is checked in slices of this many). */
export const MAX_CHECKED_PATHS = 500;

export const fileChannels = {
  /** Native pickers (Electron); the browser host answers `unsupported` and the UI offers a path field instead. */
  'files:pickFiles': invoke(z.object({ title: z.string().optional() }).strict(), z.array(z.string())),
  'files:pickFolder': invoke(z.object({ title: z.string().optional() }).strict(), z.string().nullable()),
  'files:reveal': invoke(PathArg, z.object({ revealed: z.boolean() })),
  'files:openFolder': invoke(PathArg, z.object({ opened: z.boolean() })),
  /** Registers a local file for previews and returns a URL the renderer can load (media protocol / media route). */
  'files:previewUrl': invoke(PathArg, z.object({ url: z.string() })),
  /** A small picture of a granted file for the queue (made once, cached); url null when it is not a readable picture. */
  'files:thumbnailUrl': invoke(PathArg, z.object({ url: z.string().nullable() })),
  /**
   * Each path's kind, for the photos list to mark a typed path that does not exist or is not a photo at once (it was
   * a chip counted like a folder until the estimate). Says no more than an estimate of the same paths says.
   */
  'files:checkPaths': invoke(
    z.object({ paths: z.array(z.string().min(1)).max(MAX_CHECKED_PATHS) }).strict(),
    z.array(z.object({ path: z.string(), kind: PathKindSchema })),
  ),
  /** Drag a result out of the app into another app (Electron only). */
  'files:startDrag': invoke(PathArg, z.object({ started: z.boolean() })),
  /** Paths handed to the app from outside: a second launch, a dock drop, "open with". */
  'files:opened': event(z.object({ paths: z.array(z.string()) })),
} as const;

export const AppInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'browser']),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

/** The renderer's top-level views, addressable from outside the page (the app menu, the tray). */
export const APP_VIEWS = ['workflows', 'queue', 'review', 'hotFolders', 'history', 'settings'] as const;
export const AppViewSchema = z.enum(APP_VIEWS);
export type AppView = z.infer<typeof AppViewSchema>;

export const appChannels = {
  'app:info': invoke(z.object({}).strict(), AppInfoSchema),
  /**
   * Main asks the renderer to show a view (menu: Settings… ⌘, and the view shortcuts); with a batch, Review opens on
   * that batch (a clicked "Batch done" notification).
   */
  'app:navigate': event(z.object({ view: AppViewSchema, batchId: z.string().min(1).optional() })),
  /** A batch or hot-folder run ended, or a batch paused for something the user must do (shared/notify/attention.ts). */
  'app:attention': event(AttentionSchema),
  'app:notice': event(z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() })),
} as const;
