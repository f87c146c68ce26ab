// Small stand-ins for Electron's objects: just enough behaviour to drive the glue, and a record of what it did.
import type { Core } from '../../../main/core/app/types';
import { ITEM_STATES, type BatchSummary } from '../../../shared/engine/model';
import type { EmitEvent, EventChannelName, EventPayload, Handlers } from '../../../shared/ipc/contract';
import type { InvokeEventPort, PreventableEvent, Rectangle, TrayPort, WebContentsPort, WindowPort } from '../../../main/electron/ports';

type Listener = (...args: never[]) => unknown;

export class FakeEmitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: (...args: never[]) => unknown): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => unknown)(...args);
  }
  count(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

export function preventable(): PreventableEvent & { prevented: boolean } {
  const event = { prevented: false, preventDefault: () => (event.prevented = true) };
  return event;
}

let nextId = 1;
export class FakeWebContents extends FakeEmitter implements WebContentsPort {
  readonly id = nextId++;
  destroyed = false;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  isDestroyed() {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]) {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
    this.openHandler = handler;
  }
}

export class FakeWindow extends FakeEmitter implements WindowPort {
  readonly webContents = new FakeWebContents();
  visible = false;
  minimized = false;
  maximized = false;
  focused = false;
  destroyed = false;
  loaded: string[] = [];
  progress: Array<{ value: number; mode?: string }> = [];
  bounds: Rectangle = { x: 10, y: 20, width: 1000, height: 700 };
  constructor(readonly options: unknown = {}) {
    super();
  }
  isDestroyed = () => this.destroyed;
  isVisible = () => this.visible;
  isMinimized = () => this.minimized;
  isMaximized = () => this.maximized;
  isFullScreen = () => false;
  isFocused = () => this.focused;
  show = () => void (this.visible = true);
  hide = () => void (this.visible = false);
  focus = () => void (this.focused = true);
  restore = () => void (this.minimized = false);
  maximize = () => void (this.maximized = true);
  getNormalBounds = () => this.bounds;
  setProgressBar = (value: number, options?: { mode: string }) => void this.progress.push({ value, mode: options?.mode });
  loadURL = async (url: string) => void this.loaded.push(url);
  /** What Electron does on a user close: emit `close`, and unless prevented, destroy. */
  userClose(): boolean {
    const event = preventable();
    this.emit('close', event);
    if (event.prevented) return false;
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
    return true;
  }
}

export class FakeTray extends FakeEmitter implements TrayPort {
  tooltip = '';
  menu: unknown = null;
  destroyed = false;
  setToolTip = (text: string) => void (this.tooltip = text);
  setContextMenu = (menu: unknown) => void (this.menu = menu);
  destroy = () => void (this.destroyed = true);
  isDestroyed = () => this.destroyed;
}

export function invokeEvent(sender: { id: number }, url: string | null, parent: unknown = null): InvokeEventPort {
  return { sender, senderFrame: url === null ? null : { url, parent } };
}

export interface FakeCore extends Core {
  busy: number;
  armed: boolean;
  shutdownCalls: Array<{ graceful?: boolean; timeoutMs?: number } | undefined>;
  fire<K extends EventChannelName>(channel: K, payload: EventPayload<K>): void;
}

export function fakeCore(handlers: Partial<Handlers> = {}): FakeCore {
  const listeners = new Set<(channel: EventChannelName, payload: unknown) => void>();
  const core: FakeCore = {
    busy: 0,
    armed: false,
    shutdownCalls: [],
    handlers: handlers as Handlers,
    onEvent(listener) {
      const l = listener as (channel: EventChannelName, payload: unknown) => void;
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit: ((channel: EventChannelName, payload: unknown) => {
      for (const l of listeners) l(channel, payload);
    }) as EmitEvent,
    fire(channel, payload) {
      core.emit(channel, payload);
    },
    secrets: () => ['sk_live_supersecretvalue123'],
    hasArmedHotFolders: () => core.armed,
    busyCount: () => core.busy,
    async shutdown(options) {
      core.shutdownCalls.push(options);
    },
  };
  return core;
}

type BatchOverrides = Omit<Partial<BatchSummary>, 'counts'> & { counts?: Partial<BatchSummary['counts']> };

/** A batch summary with every count present (the schema's record is exhaustive). */
export function batch(over: BatchOverrides): BatchSummary {
  const counts = Object.fromEntries(ITEM_STATES.map((s) => [s, over.counts?.[s] ?? 0])) as BatchSummary['counts'];
  return {
    id: 'b1', workflowId: 'wf', workflowName: 'Relight', state: 'running', pausedReason: null, pauseCode: null, createdAt: '2026-01-01T00:00:00Z',
    total: 10, progress: 0, etaMs: null, creditCost: 2, unitCost: 1, trialRest: null, creditsSpent: 0, budget: null, outputFolder: '/out',
    ...over,
    counts,
  } as BatchSummary;
}

