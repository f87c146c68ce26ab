import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimSingleInstance, createOpenedPathsRelay, pathsFromArgv } from '../../../main/electron/open-paths';
import { FakeEmitter, preventable } from './fakes';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'batchroom-argv-'));
  writeFileSync(join(dir, 'a.jpg'), 'x');
  mkdirSync(join(dir, 'shoot'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class FakeApp extends FakeEmitter {
  quitCalls = 0;
  constructor(private readonly gotLock: boolean) {
    super();
  }
  requestSingleInstanceLock = () => this.gotLock;
  quit = () => void this.quitCalls++;
}

describe('pathsFromArgv', () => {
  it('keeps existing files and folders, resolves relative ones, drops flags and the app itself', () => {
    const argv = ['/Applications/Batchroom', '--original-process-start-time=1', '/opt/app', 'a.jpg', join(dir, 'shoot'), 'nope.jpg', '-psn_0_1234'];
    expect(pathsFromArgv(argv, dir, { ignore: ['/opt/app'] })).toEqual([join(dir, 'a.jpg'), join(dir, 'shoot')]);
  });

  // A web page can launch the app with a batchroom:// link as its argument: it must never name a file.
  it.each([
    'batchroom://../a.jpg',
    'batchroom://app/../../a.jpg',
    'batchroom:../a.jpg',
    'batchroom:a.jpg',
    'BATCHROOM://open/..%2fa.jpg',
    'file://' + '/etc/passwd',
    'https://example.com/a.jpg',
    'a.jpg\u0000.txt',
    'shoot\n',
  ])('drops the URL or unclean argument %j', (arg) => {
    const exists = () => true; // even if something by that name existed
    expect(pathsFromArgv(['/Applications/Batchroom', arg], join(dir, 'shoot', 'deep', 'er'), { exists })).toEqual([]);
  });

});

describe('claimSingleInstance', () => {
  it('quits a second instance at once', () => {
    const app = new FakeApp(false);
    const relay = { push: vi.fn(), setReady: vi.fn() };
    expect(claimSingleInstance(app, { focus: vi.fn(), relay, ignore: [] })).toBe(false);
    expect(app.quitCalls).toBe(1);
    expect(app.count('second-instance')).toBe(0);
  });

  it('focuses the first instance and hands it the paths dropped on the second launch', () => {
    vi.useFakeTimers();
    try {
      const app = new FakeApp(true);
      const opened: string[][] = [];
      const relay = createOpenedPathsRelay((paths) => opened.push(paths));
      relay.setReady(true);
      const focus = vi.fn();
      expect(claimSingleInstance(app, { focus, relay, ignore: ['/opt/batchroom'] })).toBe(true);

      app.emit('second-instance', preventable(), ['/opt/batchroom/Batchroom', '--flag', 'a.jpg', 'shoot', 'missing.png'], dir);
      expect(focus).toHaveBeenCalledTimes(1);
      vi.runAllTimers();
      expect(opened).toEqual([[join(dir, 'a.jpg'), join(dir, 'shoot')]]);

      // A plain second launch (no files) only focuses.
      app.emit('second-instance', preventable(), ['/opt/batchroom/Batchroom'], dir);
      vi.runAllTimers();
      expect(focus).toHaveBeenCalledTimes(2);
      expect(opened).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gathers macOS open-file events, even before the window is ready, into one files:opened', () => {
    vi.useFakeTimers();
    try {
      const app = new FakeApp(true);
      const opened: string[][] = [];
      const relay = createOpenedPathsRelay((paths) => opened.push(paths));
      claimSingleInstance(app, { focus: vi.fn(), relay, ignore: [] });
      const first = preventable();
      app.emit('open-file', first, '/Users/me/1.jpg');
      app.emit('open-file', preventable(), '/Users/me/2.jpg');
      expect(first.prevented).toBe(true);
      vi.runAllTimers();
      expect(opened).toEqual([]);
      relay.setReady(true);
      expect(opened).toEqual([['/Users/me/1.jpg', '/Users/me/2.jpg']]);

      app.emit('open-file', preventable(), '/Users/me/3.jpg');
      app.emit('open-file', preventable(), '/Users/me/4.jpg');
      vi.runAllTimers();
      expect(opened).toEqual([['/Users/me/1.jpg', '/Users/me/2.jpg'], ['/Users/me/3.jpg', '/Users/me/4.jpg']]);
    } finally {
      vi.useRealTimers();
    }
  });
});
