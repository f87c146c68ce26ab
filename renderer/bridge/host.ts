/**
 * What the page's host offers beside the IPC bridge. Electron's preload maps dropped `File`s to their real paths;
 * the browser host uploads (stages) them and answers with the staged paths. Both set `window.batchroomHost`.
 */
export interface BatchroomHost {
  kind?: 'electron' | 'browser';
  /** Local paths for dropped or picked files (and, in Electron, folders). */
  pathsForFiles(files: File[]): Promise<string[]>;
  /** True when a dropped folder's File maps to the folder's path (Electron); else the renderer expands folders. */
  readsFolders?: boolean;
}

declare global {
  interface Window {
    batchroomHost?: BatchroomHost;
  }
}

export function currentHost(): BatchroomHost | null {
  return typeof window !== 'undefined' && window.batchroomHost ? window.batchroomHost : null;
}
