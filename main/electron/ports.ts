// The slices of Electron's objects the glue uses, as structural interfaces. entry.ts passes the real objects (so
// the type checker proves they fit), tests pass small fakes; no module but entry.ts needs a running Electron.

export interface PreventableEvent {
  preventDefault(): void;
}

export interface WindowOpenDetails {
  url: string;
}

export interface WebContentsPort {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
  on(event: 'will-navigate', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'did-finish-load', listener: () => void): unknown;
  setWindowOpenHandler(handler: (details: WindowOpenDetails) => { action: 'deny' }): void;
}

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowPort {
  readonly webContents: WebContentsPort;
  isDestroyed(): boolean;
  isVisible(): boolean;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  isFocused(): boolean;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  getNormalBounds(): Rectangle;
  setProgressBar(progress: number, options?: { mode: 'none' | 'normal' | 'indeterminate' | 'error' | 'paused' }): void;
  loadURL(url: string): Promise<void>;
  on(event: 'close', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'closed' | 'ready-to-show' | 'resize' | 'move' | 'maximize' | 'unmaximize', listener: () => void): unknown;
}

export interface SessionPort {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
}

export interface ProtocolPort {
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

/** The invoke event as the IPC wrapper sees it: who sent the message, from which frame. */
export interface InvokeEventPort {
  readonly sender: { readonly id: number };
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

export interface IpcMainPort {
  handle(channel: string, listener: (event: InvokeEventPort, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface TrayPort {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
  isDestroyed(): boolean;
}

export interface NotificationRequest {
  title: string;
  body: string;
}
