import { MAX_RESULT_NAME_BYTES, cutToBytes, finishComponent, replaceInvalid, safeRelDir, utf8Length } from './component';
import { TOKEN_DEFINITIONS, parseTemplate, type TemplatePart } from './tokens';
import type { NamingItem, NamingOptions, NamingOutput, PlannedItem, PlannedOutput } from './types';

// The one namer. The engine's saver, the estimate's preview, the renderer's live preview and the hot-folder dry run
// all call planOutputNames, so the name shown before a batch runs is the name written to disk.

interface Segment {
  text: string;
  /** Cut order when the name is too long (1 first); undefined: never cut (literal text, the extension). */
  cut?: number;
}

/** Case- and normalization-insensitive, as on macOS and Windows volumes: `Photo.JPG` and `photo.jpg` are one file. */
export const nameKey = (relPath: string): string => relPath.normalize('NFC').toLowerCase();

const joinRel = (relDir: string, name: string) => (relDir ? `${relDir}/${name}` : name);

function segmentsFor(parts: readonly TemplatePart[], item: NamingItem, options: NamingOptions, output: NamingOutput, n: number): Segment[] {
  const segments: Segment[] = [];
  const last = parts.length - 1;
  parts.forEach((part, i) => {
    if (part.kind === 'literal') return void segments.push({ text: replaceInvalid(part.text) });
    // A trailing {ext} is where the namer puts the extension anyway; elsewhere it is text like any other.
    if (part.name === 'ext') return void (i === last ? undefined : segments.push({ text: replaceInvalid(output.ext) }));
    const definition = TOKEN_DEFINITIONS[part.name];
    const segment: Segment = { text: replaceInvalid(definition.value({ item, options, n })) };
    if ('cut' in definition) segment.cut = definition.cut;
    segments.push(segment);
  });
  // `{name}.png` with a .png result: the template already wrote the extension.
  const tail = segments[segments.length - 1];
  const ext = output.ext.toLowerCase();
  if (tail && tail.cut === undefined && ext && tail.text.toLowerCase().endsWith(ext)) tail.text = tail.text.slice(0, -ext.length);
  // Several results of one execution never meet by accident: named by their label, else numbered, unless {n} is used.
  if (item.outputs.length > 1 && !parts.some((p) => p.kind === 'token' && p.name === 'n')) {
    segments.push({ text: '_' });
    segments.push(output.label ? { text: replaceInvalid(output.label), cut: 4 } : { text: String(n) });
  }
  return segments;
}

/** Stem + collision suffix + extension in 250 bytes (room for `.json`): cuttable values shrink first, the extension never. */
function assemble(segments: readonly Segment[], suffix: string, ext: string): string {
  const texts = segments.map((s) => s.text);
  const fixed = utf8Length(suffix) + utf8Length(replaceInvalid(ext));
  let excess = texts.reduce((sum, t) => sum + utf8Length(t), 0) + fixed - MAX_RESULT_NAME_BYTES;
  const order = segments
    .map((s, i) => ({ i, rank: s.cut ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.rank - b.rank || b.i - a.i);
  for (const { i } of order) {
    if (excess <= 0) break;
    const before = utf8Length(texts[i]!);
    texts[i] = cutToBytes(texts[i]!, Math.max(0, before - excess));
    excess -= before - utf8Length(texts[i]!);
  }
  let stem = texts.join('');
  if (/^[. ]*$/u.test(stem)) stem = 'result';
  return finishComponent(`${stem}${suffix}${replaceInvalid(ext)}`);
}

/** Sorted source-path order (NFC, then key): the order collisions are settled in. */
function sortedForNaming(items: readonly NamingItem[]): NamingItem[] {
  const keyed = items.map((item) => ({ item, source: item.sourcePath.normalize('NFC') }));
  keyed.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.item.key < b.item.key ? -1 : a.item.key > b.item.key ? 1 : 0));
  return keyed.map((k) => k.item);
}

/**
 * Names for every result of every item. Collisions settle in sorted source-path order, so the same inputs get the
 * same names on every run whatever finishes first. `existingNames` are the files already in the output folder
 * (relative paths, '/'-separated); the policy decides what meeting one means: `suffix` → `name (2).ext`, `skip` →
 * not written, `overwrite` → written over. Two results of the same batch never take one name, whatever the policy.
 */
export function planOutputNames(items: readonly NamingItem[], options: NamingOptions, existingNames: Iterable<string>): PlannedItem[] {
  const parts = parseTemplate(options.template);
  const existing = new Set(Array.from(existingNames, nameKey));
  const protectedKeys = new Set(Array.from(options.protectedNames ?? [], nameKey));
  const claimed = new Set<string>();
  const planned = new Map<string, PlannedItem>();

  for (const item of sortedForNaming(items)) {
    const relDir = safeRelDir(item.relDir);
    const claim = (fileName: string, action: 'write' | 'overwrite', collidedWith: PlannedOutput['collidedWith']): PlannedOutput => {
      const relPath = joinRel(relDir, fileName);
      claimed.add(nameKey(relPath));
      return { relPath, fileName, action, collidedWith };
    };
    const outputs = item.outputs.map((output, index): PlannedOutput => {
      const segments = segmentsFor(parts, item, options, output, index + 1);
      const desired = assemble(segments, '', output.ext);
      const key = nameKey(joinRel(relDir, desired));
      const inBatch = claimed.has(key) || protectedKeys.has(key);
      if (!inBatch && !existing.has(key)) return claim(desired, 'write', null);
      if (!inBatch && options.policy === 'skip') return { relPath: joinRel(relDir, desired), fileName: desired, action: 'skip', collidedWith: 'existing' };
      if (!inBatch && options.policy === 'overwrite') return claim(desired, 'overwrite', 'existing');
      for (let attempt = 2; ; attempt++) {
        const candidate = assemble(segments, ` (${attempt})`, output.ext);
        const candidateKey = nameKey(joinRel(relDir, candidate));
        if (claimed.has(candidateKey) || protectedKeys.has(candidateKey)) continue;
        if (!existing.has(candidateKey)) return claim(candidate, 'write', inBatch ? 'batch' : 'existing');
        // A rerun under `overwrite` writes over its own earlier `(2)`, like it does over the plain name.
        if (options.policy === 'overwrite') return claim(candidate, 'overwrite', inBatch ? 'batch' : 'existing');
      }
    });
    planned.set(item.key, { key: item.key, outputs });
  }
  return items.map((item) => planned.get(item.key)!);
}
