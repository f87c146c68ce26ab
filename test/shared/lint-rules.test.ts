import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Each fixture breaks exactly one architectural rule (or none: the `ok-` ones) and names the path it pretends to
// live at. Linting them through the real config proves every rule can fail — a rule that cannot fail proves nothing.
const FIXTURES = join(__dirname, '..', 'fixtures', 'lint');
const ROOT = join(__dirname, '..', '..');

const expectations: Record<string, { rule: string; message: RegExp } | null> = {
  'shared-imports-node.ts': { rule: 'no-restricted-imports', message: /shared\/ is pure TypeScript: no Node/ },
  'shared-imports-electron.ts': { rule: 'no-restricted-imports', message: /no electron/ },
  'shared-imports-main.ts': { rule: 'no-restricted-imports', message: /may not import from a runtime layer/ },
  'shared-imports-react.ts': { rule: 'no-restricted-imports', message: /no UI libraries/ },
  'core-imports-electron.ts': { rule: 'no-restricted-imports', message: /never import electron/ },
  'core-imports-electron-glue.ts': { rule: 'no-restricted-imports', message: /may not import the Electron glue/ },
  'core-imports-electron-store.ts': { rule: 'no-restricted-imports', message: /never import electron/ },
  'renderer-imports-node.ts': { rule: 'no-restricted-imports', message: /no Node built-ins/ },
  'renderer-imports-fs.ts': { rule: 'no-restricted-imports', message: /no Node built-ins/ },
  'renderer-imports-electron.ts': { rule: 'no-restricted-imports', message: /never touches electron/ },
  'renderer-imports-main.ts': { rule: 'no-restricted-imports', message: /may import only shared/ },
  'preload-imports-main.ts': { rule: 'no-restricted-imports', message: /may import only electron and shared/ },
  'ipcmain-outside-wrapper.ts': { rule: 'no-restricted-imports', message: /ipcMain is used only in main\/electron\/ipc-main\.ts/ },
  'ipcrenderer-outside-wrapper.ts': { rule: 'no-restricted-imports', message: /ipcRenderer is used only in preload\/ipc-renderer\.ts/ },
  'default-export.ts': { rule: 'no-restricted-syntax', message: /named exports/ },
  'default-export-specifier.ts': { rule: 'no-restricted-syntax', message: /named exports/ },
  'ok-shared.ts': null,
  'ok-ipcmain-wrapper.ts': null,
  'ok-ipcrenderer-wrapper.ts': null,
  'ok-electron-glue.ts': null,
};

function virtualPath(source: string): string {
  const match = /^\/\/ as: (\S+)/.exec(source);
  if (!match?.[1]) throw new Error('fixture lacks its "// as: path" header');
  return join(ROOT, match[1]);
}

describe('lint enforces the architecture', () => {
  const eslint = new ESLint({ cwd: ROOT });

  it('has an expectation for every fixture file', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(expectations).sort());
  });

  for (const [file, expected] of Object.entries(expectations)) {
    it(expected ? `reports ${file}` : `accepts ${file}`, async () => {
      const source = readFileSync(join(FIXTURES, file), 'utf8');
      const [result] = await eslint.lintText(source, { filePath: virtualPath(source) });
      const messages = (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
      if (!expected) {
        expect(messages).toEqual([]);
        return;
      }
      expect(messages).toEqual(
        expect.arrayContaining([expect.objectContaining({ rule: expected.rule, message: expect.stringMatching(expected.message) })]),
      );
    });
  }
});

describe('no import cycles (type-only imports included)', () => {
  const script = join(ROOT, 'scripts', 'import-cycles.mjs');
  const run = (root?: string) => spawnSync(process.execPath, [script, ...(root ? [root] : [])], { encoding: 'utf8' });

  it('finds a planted cycle through a type-only import, and none in the repository', () => {
    const dir = mkdtempSync(join(tmpdir(), 'batchroom-cycles-'));
    try {
      mkdirSync(join(dir, 'renderer', 'store'), { recursive: true });
      writeFileSync(join(dir, 'renderer', 'store', 'types.ts'), "import type { A } from './a-slice';\nexport type All = A;\n");
      writeFileSync(join(dir, 'renderer', 'store', 'a-slice.ts'), "import type { All } from './types';\nexport interface A { all?: All }\n");
      writeFileSync(join(dir, 'renderer', 'store', 'b.ts'), "import type { A } from './a-slice';\nexport type B = A;\n");
      spawnSync('git', ['init', '-q'], { cwd: dir });
      spawnSync('git', ['add', '.'], { cwd: dir });
      const planted = run(dir);
      expect(planted.status).toBe(1);
      expect(planted.stderr).toContain('import cycle: renderer/store/a-slice.ts ↔ renderer/store/types.ts');
      expect(planted.stderr).not.toContain('b.ts');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const repo = run();
    expect(repo.stderr).toBe('');
    expect(repo.status).toBe(0);
  });
});
