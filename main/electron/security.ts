import type { BrowserWindowConstructorOptions } from 'electron';
import { APP_HOST, APP_SCHEME } from './constants';
import type { SessionPort, WebContentsPort } from './ports';

/** True for URLs of the app's own protocol (the only origin whose frames may talk to main). */
export function isAppUrl(url: string): boolean {
  const parsed = safeUrl(url);
  return parsed !== null && parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
}

/**
 * Links the app may hand to the OS browser: https only, with a host and no embedded credentials. Everything else
 * (file:, javascript:, custom schemes that launch other apps, http) is refused.
 */
export function isSafeExternalUrl(url: string): boolean {
  const parsed = safeUrl(url);
  if (!parsed || parsed.protocol !== 'https:') return false;
  return parsed.hostname.length > 0 && parsed.username === '' && parsed.password === '';
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

export interface SecureWindowInput {
  preloadPath: string;
  bounds: { x?: number; y?: number; width: number; height: number };
  backgroundColor: string;
  iconPath?: string;
  title: string;
}

/** Electron's security checklist for the one window: isolated, sandboxed, no Node, web security on. */
export function secureWindowOptions(input: SecureWindowInput): BrowserWindowConstructorOptions {
  return {
    ...input.bounds,
    minWidth: 720,
    minHeight: 480,
    title: input.title,
    show: false,
    backgroundColor: input.backgroundColor,
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  };
}

export interface HardenOptions {
  /** The vetted opener: called only with URLs that passed `isSafeExternalUrl`. */
  openExternal(url: string): void;
  onBlocked?(what: string, url: string): void;
}

/**
 * The renderer never leaves the app origin: navigation and redirects elsewhere are cancelled, new windows are
 * denied, <webview> cannot attach. An https link the user clicked goes to the OS browser instead.
 */
export function hardenWebContents(contents: WebContentsPort, options: HardenOptions): void {
  const refuse = (what: string, event: { preventDefault(): void }, url: string) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    options.onBlocked?.(what, url);
    if (what === 'navigation' && isSafeExternalUrl(url)) options.openExternal(url);
  };
  contents.on('will-navigate', (event, url) => refuse('navigation', event, url));
  contents.on('will-redirect', (event, url) => refuse('redirect', event, url));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    options.onBlocked?.('webview', '');
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) options.openExternal(url);
    else options.onBlocked?.('window.open', url);
    return { action: 'deny' };
  });
}

/** The app needs no camera, microphone, location, notifications-from-web or any other web permission. */
export function denyAllPermissions(session: SessionPort, onDenied?: (permission: string) => void): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    onDenied?.(permission);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
}
