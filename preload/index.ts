// The sandboxed preload, bundled to dist/electron/preload.cjs (a sandboxed preload can require only `electron`).
import { contextBridge, webUtils } from 'electron';
import { contract } from '../shared/ipc/contract';
import { buildBridgeApi } from './bridge';
import { ipcTransport } from './ipc-renderer';

contextBridge.exposeInMainWorld('batchroom', buildBridgeApi(contract, ipcTransport));

// Dropped files carry no path in a sandboxed renderer; webUtils recovers it for files the user really dropped.
// The shape is renderer/bridge/host.ts's BatchroomHost; a dropped folder's File maps to the folder's path.
contextBridge.exposeInMainWorld('batchroomHost', {
  kind: 'electron',
  readsFolders: true,
  pathsForFiles: async (files: readonly File[]): Promise<string[]> =>
    Array.from(files, (file) => webUtils.getPathForFile(file)).filter((path) => path.length > 0),
});
