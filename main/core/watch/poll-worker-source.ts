// The polling thread of folder-poller.ts, as plain JavaScript run with `new Worker(source, { eval: true })`: a string
// rather than a file so it runs the same from sources (tsx), from the bundled app and from tests, with nothing to
// resolve at run time.
//
// It holds every path one polled hot folder watches (its folders, and new photos chokidar watches until they settle)
// and stat()s them in one burst per round instead of one libuv timer and one thread-pool hop per path: at 1,000
// folders every 250 ms that was 4,000 main-loop wake-ups a second (bench/scale-watch.ts: ≈ 4.7–5.1 % of a core for
// the stats alone at load 9–14; a burst of the same stats here ≈ 3.2–3.5 %). The stats are synchronous, but on this
// thread only: a share that stalls holds this thread's round, never the app's event loop (the rule of local-walk.ts
// is about the main thread; libuv's fs.stat is the same synchronous stat on a pool thread). A round starts only once
// the previous one ended, so a stalled share never piles stats up.
//
// Protocol. In: { add: [id, path, recheck] } (a folder or a file: its first stat tells; recheck: a folder is reported
// changed right after its first stat), { remove: id }, { settle: [n, quietMs] },
// { ping: n }, { config: { folderMs, fileMs, maxFolderStatsPerSecond } }. Out: { changes: [[id, curr, prev], …] }
// once per round that saw any; { pong: n, paths, folders, intervalMs } once every earlier message was handled (each
// path added before it has had its first stat); { settled: n, files: [[id, last], …] }: the files (not folders, not
// gone) no round has seen change for quietMs, with the stats they were last compared against — no longer polled
// from that moment, so a change after it is a difference from those stats, never a change lost in between. Folders are stat'ed every round, files only every fileMs. A path's first stat is its baseline (fs.watchFile's
// too); a path that cannot be stat'ed reads as all zeros, reported once when it goes (as fs.watchFile does).
export const POLL_WORKER_SOURCE = String.raw`
'use strict';
const { statSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
const ZERO = { size: 0, mtimeMs: 0, ctimeMs: 0, atimeMs: 0, ino: 0, mode: 0, dir: false };
const entries = new Map();
let config = { folderMs: 250, fileMs: 2000, maxFolderStatsPerSecond: 4000 };
let timer = null;
let changes = [];
const QUIET = { throwIfNoEntry: false };
const statOf = (path) => {
  try {
    return statSync(path, QUIET);
  } catch {
    return undefined;
  }
};
// Gone (or unreadable): all zeros; a folder keeps its folder's pace until chokidar lets it go.
const summary = (s, wasDir) => (s
  ? { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, atimeMs: s.atimeMs, ino: s.ino, mode: s.mode, dir: s.isDirectory() }
  : { ...ZERO, dir: wasDir });
const look = (path, wasDir) => summary(statOf(path), wasDir);
const same = (a, b) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.mode === b.mode;
let folderCount = 0;
const intervalMs = () => Math.max(config.folderMs, Math.ceil((folderCount * 1000) / config.maxFolderStatsPerSecond));
const round = () => {
  timer = null;
  const now = Date.now();
  let folders = 0;
  for (const [id, e] of entries) {
    if (!e.last.dir) {
      if (e.next > now) continue;
      e.next = now + config.fileMs;
    }
    // Compared on the Stats itself: nothing is allocated for a path that did not change (nearly all of them).
    const s = statOf(e.path);
    if (s ? same(s, e.last) : e.last.mtimeMs === 0 && e.last.size === 0 && e.last.ino === 0) {
      if (e.last.dir) folders++;
      continue;
    }
    const curr = summary(s, e.last.dir);
    if (curr.dir) folders++;
    changes.push([id, curr, e.last]);
    e.last = curr;
    e.since = now;
  }
  folderCount = folders;
  if (changes.length > 0) {
    parentPort.postMessage({ changes });
    changes = [];
  }
  if (entries.size > 0) timer = setTimeout(round, intervalMs());
};
parentPort.on('message', (m) => {
  if (m.add) {
    const [id, path, recheck] = m.add;
    const last = look(path, false);
    entries.set(id, { path, last, next: Date.now() + config.fileMs, since: Date.now() });
    if (last.dir) folderCount++;
    // A folder chokidar read before this first stat: what arrived in between is in the baseline, so it is read once
    // more now (reported as changed), after the baseline — anything later is a change of its own.
    if (recheck && last.dir) parentPort.postMessage({ changes: [[id, last, { ...last, mtimeMs: -1 }]] });
    // Missing at the start: reported once, as fs.watchFile does (chokidar then drops the path).
    else if (last.mtimeMs === 0) parentPort.postMessage({ changes: [[id, last, last]] });
  } else if (m.remove !== undefined) {
    entries.delete(m.remove);
  } else if (m.settle) {
    const [n, quietMs] = m.settle;
    const now = Date.now();
    const files = [];
    for (const [id, e] of entries) {
      if (e.last.dir || e.last.mtimeMs === 0 || now - e.since < quietMs) continue;
      entries.delete(id);
      files.push([id, e.last]);
    }
    parentPort.postMessage({ settled: n, files });
  } else if (m.config) {
    config = { ...config, ...m.config };
  } else if (m.ping !== undefined) {
    parentPort.postMessage({ pong: m.ping, paths: entries.size, folders: folderCount, intervalMs: intervalMs() });
  }
  if (timer === null && entries.size > 0) timer = setTimeout(round, intervalMs());
});
`;
