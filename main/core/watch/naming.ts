import { basename, dirname, extname, join, relative } from 'node:path';
import { DEFAULT_NAMING_TEMPLATE } from '../../../shared/engine/model';

/**
 * Predicts where the engine will save a file's result, for the dry run's "colliding in output" column. Tokens that
 * are only known after the execution ({execution}) render as a placeholder; {date}/{time} use now. Mirrors the
 * engine's layout: sub-folders of a recursive folder are mirrored under the output folder.
 */
export function predictOutputPath(options: {
  root: string;
  source: string;
  outputFolder: string;
  template?: string;
  workflowId: string;
  index: number;
  total: number;
  now?: Date;
}): string {
  const ext = extname(options.source);
  const name = basename(options.source, ext);
  const now = options.now ?? new Date();
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const tokens: Record<string, string> = {
    '{name}': name,
    '{ext}': ext,
    '{workflow}': options.workflowId,
    '{index}': String(options.index),
    '{n}': String(options.total),
    '{date}': date,
    '{time}': time,
    '{execution}': 'execution',
  };
  let file = (options.template ?? DEFAULT_NAMING_TEMPLATE).replace(/\{[a-z]+\}/g, (token) => tokens[token] ?? token);
  if (extname(file) === '') file += ext;
  const rel = relative(options.root, dirname(options.source));
  return rel && !rel.startsWith('..') ? join(options.outputFolder, rel, file) : join(options.outputFolder, file);
}
