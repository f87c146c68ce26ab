import { describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../main/electron/constants';
import {
  denyAllPermissions, hardenWebContents, isAppUrl, isSafeExternalUrl, secureWindowOptions,
} from '../../../main/electron/security';
import { FakeWebContents, preventable } from './fakes';

describe('secureWindowOptions', () => {
  const options = secureWindowOptions({ preloadPath: '/app/dist/electron/preload.cjs', bounds: { width: 900, height: 600 }, backgroundColor: '#fff', title: 'Batchroom' });

  it('turns on every flag of the security checklist', () => {
    expect(options.webPreferences).toMatchObject({
      preload: '/app/dist/electron/preload.cjs',
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
    });
  });

  it('stays hidden until the first paint and keeps the saved size', () => {
    expect(options.show).toBe(false);
    expect(options).toMatchObject({ width: 900, height: 600 });
  });
});

describe('URL vetting', () => {
  it('recognises only the app protocol as the app', () => {
    expect(isAppUrl('batchroom://app/index.html')).toBe(true);
    expect(isAppUrl('batchroom://evil/index.html')).toBe(false);
    expect(isAppUrl('file:///app/index.html')).toBe(false);
    expect(isAppUrl('https://app/index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('lets only credential-free https links out to the browser', () => {
    expect(isSafeExternalUrl('https://example.com/docs')).toBe(true);
    for (const url of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@example.com', 'ms-settings:privacy', '']) {
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
  });
});

describe('hardenWebContents', () => {
  function harden() {
    const contents = new FakeWebContents();
    const openExternal = vi.fn();
    const blocked: string[] = [];
    hardenWebContents(contents, { openExternal, onBlocked: (what) => blocked.push(what) });
    return { contents, openExternal, blocked };
  }

  it('cancels navigation away from the app and sends https links to the OS browser', () => {
    const { contents, openExternal } = harden();
    const toHttps = preventable();
    contents.emit('will-navigate', toHttps, 'https://example.com/');
    expect(toHttps.prevented).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://example.com/');

    const toFile = preventable();
    contents.emit('will-navigate', toFile, 'file:///etc/passwd');
    expect(toFile.prevented).toBe(true);
    expect(openExternal).toHaveBeenCalledTimes(1);
  });

  it('allows in-app navigation (a reload) and blocks redirects elsewhere', () => {
    const { contents } = harden();
    const reload = preventable();
    contents.emit('will-navigate', reload, 'batchroom://app/index.html');
    expect(reload.prevented).toBe(false);
    const redirect = preventable();
    contents.emit('will-redirect', redirect, 'https://evil.example/');
    expect(redirect.prevented).toBe(true);
  });

  it('denies every new window, opening only vetted https links externally', () => {
    const { contents, openExternal, blocked } = harden();
    expect(contents.openHandler?.({ url: 'https://example.com/help' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://example.com/help');
    expect(contents.openHandler?.({ url: 'file:///C:/Windows/system32/calc.exe' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
    expect(blocked).toContain('window.open');
  });

  it('refuses to attach a <webview>', () => {
    const { contents } = harden();
    const attach = preventable();
    contents.emit('will-attach-webview', attach);
    expect(attach.prevented).toBe(true);
  });
});

describe('denyAllPermissions', () => {
  it('answers no to every permission request and check', () => {
    let request: ((wc: unknown, permission: string, cb: (granted: boolean) => void) => void) | undefined;
    let check: ((wc: unknown, permission: string) => boolean) | undefined;
    denyAllPermissions({ setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) });
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) {
      const callback = vi.fn();
      request?.({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(check?.({}, permission)).toBe(false);
    }
  });
});

describe('content security policy', () => {
  it('allows no inline or eval script and nothing from the network', () => {
    const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['img-src']).toContain('batchroom-media:');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
  });
});
