// Output names from a template. Tokens: {name} source file name without extension, {ext} the result's extension
// (with its dot), {workflow} workflow id, {index} item number in the batch (zero-padded), {n} result number within
// one execution, {date} YYYY-MM-DD, {time} HH-MM-SS, {execution} execution id.

export interface NameTokens {
  name: string;
  ext: string;
  workflow: string;
  index: number;
  total: number;
  n: number;
  resultCount: number;
  at: Date;
  execution: string;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/** One safe path segment on every platform: no separators, control or reserved characters, no trailing dot/space. */
export function sanitizeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  let out = name.replace(/[<>:"/\\|?*\u0000-\u001f]/g, '_').replace(/[. ]+$/g, '');
  if (out.length === 0 || out === '.' || out === '..') out = 'result';
  if (WINDOWS_RESERVED.test(out)) out = `_${out}`;
  // Most file systems allow 255 bytes per name; keep room for a collision suffix.
  while (Buffer.byteLength(out, 'utf8') > 230) out = Array.from(out).slice(0, -1).join('');
  return out;
}

export function renderName(template: string, tokens: NameTokens): string {
  const at = tokens.at;
  const values: Record<string, string> = {
    name: tokens.name,
    ext: tokens.ext,
    workflow: tokens.workflow,
    index: pad(tokens.index, Math.max(3, String(tokens.total).length)),
    n: String(tokens.n),
    date: `${at.getFullYear()}-${pad(at.getMonth() + 1, 2)}-${pad(at.getDate(), 2)}`,
    time: `${pad(at.getHours(), 2)}-${pad(at.getMinutes(), 2)}-${pad(at.getSeconds(), 2)}`,
    execution: tokens.execution,
  };
  let rendered = template.replace(/\{(name|ext|workflow|index|n|date|time|execution)\}/g, (_m, key: string) => values[key] ?? '');
  const ext = tokens.ext.toLowerCase();
  const hasExt = ext !== '' && rendered.toLowerCase().endsWith(ext);
  if (hasExt) rendered = rendered.slice(0, rendered.length - ext.length);
  // Several results of one execution must not collide into suffixes by accident: number them when the template does not.
  if (tokens.resultCount > 1 && !template.includes('{n}')) rendered = `${rendered}_${tokens.n}`;
  return sanitizeFileName(`${sanitizeFileName(rendered)}${tokens.ext}`);
}

/** `photo.png` → `photo (2).png`. */
export function withSuffix(fileName: string, attempt: number): string {
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const ext = dot > 0 ? fileName.slice(dot) : '';
  return `${stem} (${attempt})${ext}`;
}

const FORMAT_EXT: Record<string, string> = { jpeg: '.jpg', png: '.png', webp: '.webp', gif: '.gif', tiff: '.tif', avif: '.avif', heif: '.heic' };

export function extensionForFormat(format: string | undefined): string {
  return (format && FORMAT_EXT[format]) ?? '.bin';
}
