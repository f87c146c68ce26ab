import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Api } from '../shared/ipc/contract';
import { App } from './App';
import { createBrowserBridgeFromLocation } from './bridge/ws-bridge';
import { connectStore, createAppStore } from './store/app-store';
import { StoreProvider } from './store/context';
import './styles/app.css';

declare global {
  interface Window {
    /** Set by Electron's preload; absent in a plain browser, where the browser host's WebSocket bridge is used. */
    batchroom?: Api;
  }
}

const bridge: Api = window.batchroom ?? createBrowserBridgeFromLocation();
const store = createAppStore(bridge);
connectStore(store, bridge);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoreProvider store={store} bridge={bridge}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
