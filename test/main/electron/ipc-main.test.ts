import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../../shared/ipc/contract';
import { AppError } from '../../../shared/errors';
import type { InvokeEventPort, IpcMainPort } from '../../../main/electron/ports';
import { forwardCoreEvents } from '../../../main/electron/event-forwarding';
import { FakeWebContents, fakeCore, invokeEvent } from './fakes';

// ipc-main.ts imports Electron's ipcMain for its production binding; plain Node has no Electron.
vi.mock('electron', () => ({ ipcMain: { handle: vi.fn(), removeHandler: vi.fn() } }));
const { registerIpcHandlers } = await import('../../../main/electron/ipc-main');

class FakeIpcMain implements IpcMainPort {
  readonly handlers = new Map<string, (event: InvokeEventPort, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: InvokeEventPort, ...args: unknown[]) => unknown) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  send(channel: string, event: InvokeEventPort, ...args: unknown[]) {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event, ...args) as Promise<unknown>;
  }
}

const window = new FakeWebContents();
const APP = 'batchroom://app/index.html';

function setup() {
  const workflowsGet = vi.fn(async ({ id }: { id: string }) => {
    if (id === 'missing') throw new AppError('not_found', 'No workflow missing (key sk_live_supersecretvalue123)');
    return { id, name: 'Relight', description: '', tags: [], creditCost: 2, inputs: { imageFields: [], textFields: [], switchFields: [] } };
  });
  const balanceGet = vi.fn(async () => ({ apiCredits: 40, webCredits: { total: 0, breakdown: [] } }));
  const core = fakeCore({ 'workflows:get': workflowsGet as never, 'balance:get': balanceGet as never });
  const ipc = new FakeIpcMain();
  const refused: string[] = [];
  const dispose = registerIpcHandlers(ipc, {
    handlers: core.handlers,
    secrets: () => core.secrets(),
    isOurWebContents: (id) => id === window.id,
    onRefused: (channel, reason) => refused.push(`${channel}:${reason}`),
  });
  return { ipc, workflowsGet, balanceGet, refused, dispose };
}

describe('the ipcMain wrapper', () => {
  it('registers exactly the contract invoke channels and removes them again', () => {
    const { ipc, dispose } = setup();
    expect([...ipc.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    dispose();
    expect(ipc.handlers.size).toBe(0);
  });

  it('answers a trusted sender with the ok envelope', async () => {
    const { ipc, balanceGet } = setup();
    const result = await ipc.send('balance:get', invokeEvent(window, APP), {});
    expect(result).toEqual({ ok: true, data: { apiCredits: 40, webCredits: { total: 0, breakdown: [] } } });
    expect(balanceGet).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a foreign webContents', { id: 9999 }, APP, null],
    ['a page that navigated elsewhere', window, 'https://evil.example/', null],
    ['a file:// page', window, 'file:///tmp/index.html', null],
    ['an iframe inside the app', window, APP, { url: APP }],
    ['a frame that is gone', window, null, null],
  ])('refuses %s without calling the handler', async (_label, sender, url, parent) => {
    const { ipc, balanceGet, refused } = setup();
    const result = await ipc.send('balance:get', invokeEvent(sender, url, parent), {});
    expect(result).toMatchObject({ ok: false, code: 'untrusted_sender' });
    expect(balanceGet).not.toHaveBeenCalled();
    expect(refused).toHaveLength(1);
  });

  it('refuses a malformed payload with bad_request before the handler runs', async () => {
    const { ipc, workflowsGet } = setup();
    for (const args of [{ id: '' }, { id: 42 }, { id: 'x', extra: true }, 'workflows', null]) {
      const result = await ipc.send('workflows:get', invokeEvent(window, APP), args);
      expect(result, JSON.stringify(args)).toMatchObject({ ok: false, code: 'bad_request' });
    }
    expect(workflowsGet).not.toHaveBeenCalled();
  });

  it('turns a handler failure into an error envelope without the key', async () => {
    const { ipc } = setup();
    const result = (await ipc.send('workflows:get', invokeEvent(window, APP), { id: 'missing' })) as { ok: false; code: string; message: string };
    expect(result).toMatchObject({ ok: false, code: 'not_found' });
    expect(result.message).not.toContain('supersecretvalue123');
  });

  it('says unsupported for a channel this host has no handler for', async () => {
    const { ipc } = setup();
    expect(await ipc.send('files:pickFolder', invokeEvent(window, APP), {})).toMatchObject({ ok: false, code: 'unsupported' });
  });
});

describe('forwardCoreEvents', () => {
  it('sends each core event with its payload to live windows only', () => {
    const core = fakeCore();
    const live = new FakeWebContents();
    const dead = new FakeWebContents();
    dead.destroyed = true;
    const stop = forwardCoreEvents(core, () => [live, dead]);
    core.fire('files:opened', { paths: ['/a.jpg'] });
    expect(live.sent).toEqual([{ channel: 'files:opened', args: [{ paths: ['/a.jpg'] }] }]);
    expect(dead.sent).toEqual([]);
    stop();
    core.fire('files:opened', { paths: ['/b.jpg'] });
    expect(live.sent).toHaveLength(1);
  });
});
