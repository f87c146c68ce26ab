import { build } from 'esbuild';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../../shared/ipc/contract';
import { eventMethodName, splitChannel } from '../../../shared/ipc/contract-kit';

type Exposed = Record<string, unknown>;

/** A fake of the three electron modules a preload touches, recording what the preload does with them. */
function fakeElectron() {
  const exposed = new Map<string, Exposed>();
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  const invoked: Array<{ channel: string; args: unknown[] }> = [];
  return {
    exposed,
    listeners,
    invoked,
    module: {
      contextBridge: {
        exposeInMainWorld: (key: string, api: Exposed) => {
          if (exposed.has(key)) throw new Error(`${key} exposed twice`);
          exposed.set(key, api);
        },
      },
      ipcRenderer: {
        invoke: async (channel: string, ...args: unknown[]) => {
          invoked.push({ channel, args });
          return { ok: true, data: null };
        },
        on: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
          if (!listeners.has(channel)) listeners.set(channel, new Set());
          listeners.get(channel)!.add(listener);
        },
        removeListener: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
          listeners.get(channel)?.delete(listener);
        },
      },
      webUtils: { getPathForFile: (file: { path?: string }) => file.path ?? '' },
    },
  };
}

/** The methods the contract promises: `domain.action` for invokes, `domain.onAction` for events. */
function expectedMethods(): string[] {
  return [
    ...INVOKE_CHANNELS.map((c) => { const { domain, action } = splitChannel(c); return `${domain}.${action}`; }),
    ...EVENT_CHANNELS.map((c) => { const { domain, action } = splitChannel(c); return `${domain}.${eventMethodName(action)}`; }),
  ].sort();
}

function methodsOf(api: Exposed): string[] {
  return Object.entries(api).flatMap(([domain, methods]) => Object.keys(methods as object).map((m) => `${domain}.${m}`)).sort();
}

const electron = fakeElectron();
vi.mock('electron', () => electron.module);

describe('preload/index.ts against a fake contextBridge and ipcRenderer', () => {
  beforeAll(async () => {
    await import('../../../preload/index');
  });

  it('exposes window.batchroom and window.batchroomHost, nothing else', () => {
    expect([...electron.exposed.keys()].sort()).toEqual(['batchroom', 'batchroomHost']);
  });

  it('has exactly one method per contract channel', () => {
    expect(methodsOf(electron.exposed.get('batchroom')!)).toEqual(expectedMethods());
  });

  it('invokes each channel with its own name and the arguments', async () => {
    const api = electron.exposed.get('batchroom') as Record<string, Record<string, (a?: unknown) => Promise<unknown>>>;
    await api.workflows!.get!({ id: 'wf_1' });
    await api.balance!.get!();
    expect(electron.invoked).toEqual([
      { channel: 'workflows:get', args: [{ id: 'wf_1' }] },
      { channel: 'balance:get', args: [{}] },
    ]);
  });

  it('passes listeners only the payload and unsubscribes', () => {
    const api = electron.exposed.get('batchroom') as Record<string, Record<string, (l: unknown) => () => void>>;
    const received: unknown[][] = [];
    const unsubscribe = api.files!.onOpened!((...args: unknown[]) => received.push(args));
    const ipcEvent = { sender: { send: () => undefined }, senderId: 0 };
    for (const l of electron.listeners.get('files:opened') ?? []) l(ipcEvent, { paths: ['/x.jpg'] });
    expect(received).toEqual([[{ paths: ['/x.jpg'] }]]);
    unsubscribe();
    expect(electron.listeners.get('files:opened')?.size).toBe(0);
    expect(() => api.files!.onOpened!('not a function')).toThrow(TypeError);
  });

  it('maps dropped files to their paths through webUtils', async () => {
    const host = electron.exposed.get('batchroomHost') as { kind: string; readsFolders: boolean; pathsForFiles(f: unknown[]): Promise<string[]> };
    expect(host.kind).toBe('electron');
    expect(host.readsFolders).toBe(true);
    expect(await host.pathsForFiles([{ path: '/a.jpg' }, { path: '' }, { path: '/dir' }])).toEqual(['/a.jpg', '/dir']);
  });
});

describe('the bundled preload', () => {
  it('is one CommonJS file that requires nothing but electron', async () => {
    const result = await build({
      entryPoints: ['preload/index.ts'],
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'browser',
      external: ['electron'],
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    const sandboxElectron = fakeElectron();
    const required: string[] = [];
    const module = { exports: {} };
    runInNewContext(code, {
      module,
      exports: module.exports,
      require: (name: string) => {
        required.push(name);
        if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
        return sandboxElectron.module;
      },
    });
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(methodsOf(sandboxElectron.exposed.get('batchroom')!)).toEqual(expectedMethods());
  });
});
