import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchAttention, type Attention } from '../../shared/notify/attention';
import { batch, counts, item, settings, standardBridge } from './helpers/fixtures';
import { renderApp, showView } from './helpers/render-app';

/** The browser's Notification, as a page sees it: a permission, a request, and each notification shown. */
class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static requests = 0;
  static shown: FakeNotification[] = [];
  static answer: NotificationPermission = 'granted';
  static async requestPermission(): Promise<NotificationPermission> {
    FakeNotification.requests += 1;
    FakeNotification.permission = FakeNotification.answer;
    return FakeNotification.permission;
  }
  onclick: ((event: Event) => unknown) | null = null;
  closed = false;
  constructor(readonly title: string, readonly options?: NotificationOptions) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

const done: Attention = { kind: 'batch-ended', title: 'Batch done — Color Grade', body: '24 saved, 1 failed · 24 credits', batchId: 'b7', needsAction: true };

function bridge(host: 'browser' | 'electron' = 'browser', notifyWhenDone = true) {
  return standardBridge({
    'app:info': () => ({ version: '0.1.0', host, platform: 'linux' }),
    'settings:get': () => ({ settings: { ...settings, notifyWhenDone }, warnings: [] }),
    'batches:list': () => [batch({ id: 'b7', state: 'completed', counts: counts({ saved: 1 }) })],
    'batches:items': () => ({ total: 1, items: [item(1, 'saved', { batchId: 'b7', outputs: ['/out/1.jpg'] })] }),
  });
}

beforeEach(() => {
  FakeNotification.permission = 'granted';
  FakeNotification.answer = 'granted';
  FakeNotification.requests = 0;
  FakeNotification.shown = [];
  vi.stubGlobal('Notification', FakeNotification);
});
afterEach(() => vi.unstubAllGlobals());

async function ready(fake: ReturnType<typeof bridge>) {
  const app = renderApp(fake);
  await waitFor(() => expect(app.store.getState().appInfo).not.toBeNull());
  await waitFor(() => expect(app.store.getState().settings).not.toBeNull());
  return app;
}

describe('the browser host says "done" with a Web Notification', () => {
  it('shows app:attention when allowed, and a click opens Review on that batch', async () => {
    const fake = bridge();
    const app = await ready(fake);
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    act(() => fake.emit('app:attention', done));
    expect(FakeNotification.shown.map((n) => [n.title, n.options?.body])).toEqual([['Batch done — Color Grade', '24 saved, 1 failed · 24 credits']]);
    expect(app.store.getState().view).not.toBe('review');
    act(() => void FakeNotification.shown[0]!.onclick!(new Event('click')));
    expect(app.store.getState().view).toBe('review');
    expect(app.store.getState().selectedBatchId).toBe('b7');
    expect(FakeNotification.shown[0]!.closed).toBe(true);
    expect(focus).toHaveBeenCalled();
    app.disconnect();
  });

  it("says the core's app:attention in the page's language from its keys (German here)", async () => {
    const fake = standardBridge({
      'app:info': () => ({ version: '0.1.0', host: 'browser', platform: 'linux' }),
      'settings:get': () => ({ settings: { ...settings, notifyWhenDone: true, language: 'de' }, warnings: [] }),
    });
    const app = await ready(fake);
    await waitFor(() => expect(app.store.getState().settings?.language).toBe('de'));
    const before = batch({ id: 'b7', workflowName: 'Color Grade', state: 'running' });
    const said = batchAttention(before, { ...before, state: 'completed', counts: counts({ saved: 24, failed: 1 }), creditsSpent: 24 })!;
    act(() => fake.emit('app:attention', said));
    expect(FakeNotification.shown.map((n) => [n.title, n.options?.body])).toEqual([['Stapel fertig – Color Grade', '24 gesichert, 1 fehlgeschlagen · 24 Credits']]);
    app.disconnect();
  });

  it('shows nothing (and never asks) when not allowed, with the setting off, or in the Electron app', async () => {
    FakeNotification.permission = 'default';
    const notAllowed = bridge();
    const a = await ready(notAllowed);
    act(() => notAllowed.emit('app:attention', done));
    a.disconnect();
    FakeNotification.permission = 'granted';
    const off = bridge('browser', false);
    const b = await ready(off);
    act(() => off.emit('app:attention', done));
    b.disconnect();
    const electron = bridge('electron');
    const c = await ready(electron);
    act(() => electron.emit('app:attention', done));
    c.disconnect();
    expect(FakeNotification.shown).toEqual([]);
    expect(FakeNotification.requests).toBe(0);
  });

  it('opens Review on a batch main names (a clicked native notification in the app)', async () => {
    const fake = bridge('electron');
    const app = await ready(fake);
    act(() => fake.emit('app:navigate', { view: 'review', batchId: 'b7' }));
    expect(app.store.getState().view).toBe('review');
    expect(app.store.getState().selectedBatchId).toBe('b7');
    app.disconnect();
  });
});

describe('Settings: "Notify me when batches finish"', () => {
  it('asks the browser for permission from the click that turns it on, and saves the setting', async () => {
    FakeNotification.permission = 'default';
    const fake = bridge('browser', false);
    const { user } = await showView('settings', fake);
    await waitFor(() => expect(fake.callsTo('app:info')).toHaveLength(1));
    const toggle = screen.getByRole('checkbox', { name: /notify me when batches finish/i });
    expect(toggle).not.toBeChecked();
    expect(FakeNotification.requests).toBe(0);
    await user.click(toggle);
    expect(FakeNotification.requests).toBe(1);
    await waitFor(() => expect(fake.callsTo('settings:update')).toEqual([{ patch: { notifyWhenDone: true } }]));
  });

  it('says when the browser blocks notifications from the page', async () => {
    FakeNotification.permission = 'denied';
    await showView('settings', bridge());
    expect(await screen.findByText(/blocks notifications from this page/)).toBeInTheDocument();
  });

  it('offers "Allow browser notifications" while the page was never asked', async () => {
    FakeNotification.permission = 'default';
    const { user } = await showView('settings', bridge());
    await user.click(await screen.findByRole('button', { name: 'Allow browser notifications' }));
    expect(FakeNotification.requests).toBe(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Allow browser notifications' })).toBeNull());
  });
});
