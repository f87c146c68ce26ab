import { ipcRenderer } from 'electron';
import type { BridgeTransport } from './bridge';

// The one place in the preload that touches ipcRenderer (ESLint enforces it). Listeners get the payload only,
// never the IpcRendererEvent, whose `sender` would hand the page a way to send arbitrary messages.

export const ipcTransport: BridgeTransport = {
  invoke: (channel, args) => ipcRenderer.invoke(channel, args),
  subscribe(channel, listener) {
    const wrapped = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
};
