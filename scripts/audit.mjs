#!/usr/bin/env node
// `npm run audit`: dependency advisories for what ships (production dependencies), and whether the pinned Electron is
// still inside Electron's support window. Needs the registry: where its audit endpoint does not answer (these build
// machines), it says so and exits 2 — unknown is not clean. Exit 0 clean, 1 advisories or an unsupported Electron.
// Not part of `npm test`: its answer depends on the registry on the day, and a test must not.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditVerdict, electronSupport } from './audit-lib.mjs';

const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (args) => spawnSync(npm, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });

const audit = run(['audit', '--omit=dev', '--json']);
const verdict = auditVerdict(audit.status ?? 1, audit.stdout, audit.stderr);
process.stdout.write(`advisories: ${verdict.message}\n`);

const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.electron;
const latest = run(['view', 'electron', 'version']);
const electron = latest.status === 0
  ? electronSupport(pinned, latest.stdout.trim())
  : { ok: null, message: `Electron ${pinned}: the registry did not say which release is newest (${latest.stderr.trim().split('\n').pop() ?? 'no answer'})` };
process.stdout.write(`electron: ${electron.message}\n`);

if (verdict.status === 'advisories' || electron.ok === false) process.exitCode = 1;
else if (verdict.status === 'unavailable' || electron.ok === null) process.exitCode = 2;
