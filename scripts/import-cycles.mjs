#!/usr/bin/env node
// Fails when source files import each other in a circle — type-only imports included, because a type cycle is still
// two modules that cannot be understood (or moved) one without the other. Run by `npm run lint`.
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOTS = ['main', 'shared', 'renderer', 'preload'];
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm;

/** file → the files it imports (relative imports only; packages cannot close a cycle through our code). */
export function buildGraph(root) {
  const files = execFileSync('git', ['ls-files', ...ROOTS.flatMap((r) => [`${r}/**/*.ts`, `${r}/**/*.tsx`, `${r}/*.ts`, `${r}/*.tsx`])], { cwd: root })
    .toString().trim().split('\n').filter(Boolean);
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const full = join(root, file);
    if (!existsSync(full)) continue;
    const deps = [];
    for (const match of readFileSync(full, 'utf8').matchAll(IMPORT)) {
      const base = resolve(dirname(full), match[1]);
      const hit = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].map((c) => relative(root, c)).find((c) => known.has(c));
      if (hit) deps.push(hit);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each sorted, for a stable report. */
export function findCycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // The repository by default; a folder given as the argument instead (the test points it at a planted cycle).
  const root = process.argv[2] ? resolve(process.argv[2]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const cycles = findCycles(buildGraph(root));
  if (cycles.length > 0) {
    for (const cycle of cycles) console.error(`import cycle: ${cycle.join(' ↔ ')}`);
    process.exit(1);
  }
}
