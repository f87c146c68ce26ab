import { render } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { connectStore, createAppStore } from '../../../renderer/store/app-store';
import { StoreProvider } from '../../../renderer/store/context';
import type { FakeBridge } from './fake-bridge';

/** Renders the whole app against a fake bridge, connected as main.tsx connects it. */
export function renderApp(fake: FakeBridge) {
  const store = createAppStore(fake.api);
  const disconnect = connectStore(store, fake.api);
  const view = render(<StoreProvider store={store} bridge={fake.api}><App /></StoreProvider>);
  return { store, disconnect, ...view };
}
