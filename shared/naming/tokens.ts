import type { NamingItem, NamingOptions } from './types';
import { utf8Length } from './component';
import { stemOf } from './source';

// The naming template's tokens, one line each. `cut` is the order in which values give up characters when a name
// would pass 255 bytes (1 first); tokens without it are never cut, like the template's literal text and {ext}.
// Per-item values (known only for that photo: execution id, capture date, camera) come from `item.tokens`.

/** Tokens whose values the core reads from each original's metadata. */
export const CAPTURE_TOKENS = ['capture_date', 'capture_time', 'camera'] as const;

/** Whether a template needs the originals' capture metadata read (an ExifTool call per photo). */
export const usesCaptureTokens = (template: string): boolean => CAPTURE_TOKENS.some((t) => template.includes(`{${t}}`));

export interface TokenContext {
  item: NamingItem;
  options: NamingOptions;
  /** Result number within the item's execution, from 1. */
  n: number;
}

export interface TokenDefinition {
  value: (context: TokenContext) => string;
  cut?: number;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const perItem = (key: string, fallback: string) => (c: TokenContext) => c.item.tokens?.[key] ?? fallback;

export const TOKEN_DEFINITIONS = {
  name: { value: (c) => stemOf(c.item.sourcePath), cut: 1 },
  ext: { value: () => '' /* the output's extension: placed by the namer itself, never cut */ },
  workflow: { value: (c) => c.options.workflow, cut: 2 },
  index: { value: (c) => pad(c.item.index, Math.max(3, String(c.options.total).length)) },
  n: { value: (c) => String(c.n) },
  date: { value: (c) => `${c.options.at.getFullYear()}-${pad(c.options.at.getMonth() + 1, 2)}-${pad(c.options.at.getDate(), 2)}` },
  time: { value: (c) => `${pad(c.options.at.getHours(), 2)}-${pad(c.options.at.getMinutes(), 2)}-${pad(c.options.at.getSeconds(), 2)}` },
  execution: { value: perItem('execution', 'execution'), cut: 3 },
  // The original's capture (DateTimeOriginal on the camera's clock, else the file's date) and camera model, read by
  // the core once per source; a source without them (a URL, the app's live preview) gets the fallback.
  capture_date: { value: perItem('capture_date', 'undated') },
  capture_time: { value: perItem('capture_time', '000000') },
  camera: { value: perItem('camera', 'unknown-camera'), cut: 3 },
} satisfies Record<string, TokenDefinition>;

export type TokenName = keyof typeof TOKEN_DEFINITIONS;

/** Every token the template understands, as written in a template. */
export const NAMING_TOKENS: readonly string[] = Object.keys(TOKEN_DEFINITIONS).map((name) => `{${name}}`);

const isToken = (name: string): name is TokenName => Object.hasOwn(TOKEN_DEFINITIONS, name);

export type TemplatePart = { kind: 'literal'; text: string } | { kind: 'token'; name: TokenName };

/** `{name}_{workflow}{ext}` → token, literal `_`, token, token. Unknown `{x}` stays literal text. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([a-z_]+)\}/g)) {
    const name = match[1]!;
    if (!isToken(name)) continue;
    if (match.index > last) parts.push({ kind: 'literal', text: template.slice(last, match.index) });
    parts.push({ kind: 'token', name });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ kind: 'literal', text: template.slice(last) });
  return parts;
}

/** Problems a template has before it is saved: empty, unknown tokens, separators, every result named the same. */
export function templateProblems(template: string): string[] {
  const problems: string[] = [];
  if (template.trim() === '') problems.push('The template is empty.');
  const unknown = (template.match(/\{[^}]*\}/g) ?? []).filter((t) => !NAMING_TOKENS.includes(t));
  if (unknown.length > 0) problems.push(`Unknown ${unknown.length === 1 ? 'token' : 'tokens'}: ${unknown.join(', ')}`);
  if (/[\\/]/.test(template)) problems.push('Names cannot contain / or \\.');
  if (!['{name}', '{index}', '{n}', '{execution}'].some((t) => template.includes(t))) {
    problems.push('Without {name}, {index} or {n}, every result gets the same name.');
  }
  const literalBytes = parseTemplate(template).reduce((sum, p) => sum + (p.kind === 'literal' ? utf8Length(p.text) : 0), 0);
  if (literalBytes > 150) problems.push('The fixed text of the template is too long for a file name.');
  return problems;
}
