import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Api } from '../../shared/ipc/contract';
import type { AppState, AppStore } from './state';

const StoreContext = createContext<{ store: AppStore; bridge: Api } | null>(null);

export function StoreProvider({ store, bridge, children }: { store: AppStore; bridge: Api; children: ReactNode }) {
  return <StoreContext.Provider value={{ store, bridge }}>{children}</StoreContext.Provider>;
}

function useStoreContext() {
  const value = useContext(StoreContext);
  if (!value) throw new Error('useApp must be used inside <StoreProvider>');
  return value;
}

/** Subscribes a component to one selected piece of state. */
export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(useStoreContext().store, selector);
}

export function useAppStore(): AppStore {
  return useStoreContext().store;
}

export function useBridge(): Api {
  return useStoreContext().bridge;
}

/** The store's actions: stable functions, so reading them never subscribes a component to state changes. */
export function useActions(): AppState {
  return useStoreContext().store.getState();
}
