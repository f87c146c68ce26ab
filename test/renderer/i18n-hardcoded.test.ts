import { describe, expect, it } from 'vitest';
import fixture from '../fixtures/i18n/hardcoded.tsx?raw';
import { scanSource } from './helpers/i18n-scan';

// Every renderer source as text, read by Vite at collection time (renderer tests run without Node's types).
const SOURCES = Object.fromEntries(Object.entries(
  import.meta.glob<string>(['../../renderer/**/*.ts', '../../renderer/**/*.tsx', '!**/*.d.ts'], { query: '?raw', import: 'default', eager: true }),
).map(([path, text]) => [path.replace(/^(\.\.\/)+/, ''), text]));

/**
 * Folders still being converted to catalogs (docs/i18n.md): whoever finishes one removes it here. When this list is
 * empty, every user-visible text in renderer/ comes from a catalog.
 */
const PENDING: readonly string[] = [];

/** Never shown to a user: the queue benchmark's own page (npm run bench). */
const NOT_UI = ['renderer/bench'];

const skipped = (file: string) => [...PENDING, ...NOT_UI].some((entry) => file === entry || file.startsWith(`${entry}/`));

describe('hard-coded user-visible text in renderer/', () => {
  it('finds every kind of hard-coded text in a fixture, and leaves keys, classes, symbols and names alone', () => {
    const found = scanSource('hardcoded.tsx', fixture).map((f) => `${f.line}: ${f.text}`);
    expect(found).toEqual([
      '4: Queue',
      '5: Copied',
      '6: Still busy',
      '8: Open settings',
      '9: Skip to content',
      '10: Stop batch',
      '10: Search',
      '10: workflows',
      '11: Before',
      '12: Working…',
    ]);
  });

  it('finds none in the converted folders', () => {
    const files = Object.keys(SOURCES).filter((f) => !skipped(f));
    expect(files).toContain('renderer/App.tsx');
    const findings = files.flatMap((file) => scanSource(file, SOURCES[file]!));
    // Listed as file:line so the message says where to look.
    expect(findings.map((f) => `${f.file}:${f.line}  ${f.text}`)).toEqual([]);
  });
});
