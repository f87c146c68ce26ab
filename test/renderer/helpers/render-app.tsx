import { act, render, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { App } from '../../../renderer/App';
import { connectStore, createAppStore } from '../../../renderer/store/app-store';
import { StoreProvider } from '../../../renderer/store/context';
import type { AppView } from '../../../shared/ipc/channels/files';
import type { FakeBridge } from './fake-bridge';

/** Renders the whole app against a fake bridge, connected as main.tsx connects it. */
export function renderApp(fake: FakeBridge) {
  const store = createAppStore(fake.api);
  const disconnect = connectStore(store, fake.api);
  const view = render(<StoreProvider store={store} bridge={fake.api}><App /></StoreProvider>);
  return { store, disconnect, ...view };
}

/** The app rendered with its settings loaded and one view shown, plus a user to drive it. */
export async function showView(view: AppView, fake: FakeBridge) {
  const user = userEvent.setup({ delay: null });
  const app = renderApp(fake);
  await waitFor(() => expect(app.store.getState().settings).not.toBeNull());
  act(() => app.store.getState().setView(view));
  return { user, fake, ...app };
}
