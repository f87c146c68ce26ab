import { NAMING_TOKENS } from '../../shared/engine/model';

/**
 * A live preview of the naming template for Settings and the batch form. The engine's namer is the authority
 * (the batch summary shows its real output names); this mirrors its tokens for instant feedback while typing.
 */
export interface NamingSample {
  name: string;
  ext: string;
  workflow: string;
  index: number;
  total: number;
  now?: Date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function previewName(template: string, sample: NamingSample): string {
  const now = sample.now ?? new Date();
  const width = Math.max(3, String(sample.total).length);
  const tokens: Record<string, string> = {
    '{name}': sample.name,
    '{ext}': sample.ext,
    '{workflow}': sample.workflow,
    '{index}': pad(sample.index, width),
    '{n}': String(sample.index),
    '{date}': `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
    '{time}': `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`,
    '{execution}': 'ex_7f3a',
  };
  return template.replace(/\{[a-z]+\}/g, (token) => tokens[token] ?? token);
}

/** Problems a template has before it is saved: unknown tokens and path separators. */
export function templateProblems(template: string): string[] {
  const problems: string[] = [];
  if (template.trim() === '') problems.push('The template is empty.');
  const unknown = (template.match(/\{[^}]*\}/g) ?? []).filter(
    (t) => !(NAMING_TOKENS as readonly string[]).includes(t),
  );
  if (unknown.length > 0) problems.push(`Unknown ${unknown.length === 1 ? 'token' : 'tokens'}: ${unknown.join(', ')}`);
  if (/[\\/]/.test(template)) problems.push('Names cannot contain / or \\.');
  if (!template.includes('{name}') && !template.includes('{index}') && !template.includes('{n}') && !template.includes('{execution}')) {
    problems.push('Without {name}, {index} or {n}, every result gets the same name.');
  }
  return problems;
}
