import { redactSecrets } from '../../../shared/redact';

// What a crash report may never carry: an API key (shared/redact.ts), a path of the user's, or a photo's name. The
// scrub is deliberately greedy: a path runs to the next quote, bracket or line end (paths have spaces: "My Photos"),
// so a few words after one may go too. Only paths inside the app's own install are kept, relative to it, so a
// stack trace still says where in the app it broke.

export interface ScrubOptions {
  /** The API key in use and any other secret to remove verbatim (redactSecrets also masks any sk_live_/sk_test_). */
  secrets?: readonly string[];
  /** The user's home folder (os.homedir()): removed wherever it appears, even inside a relative-looking string. */
  home?: string;
  /** The user's login name: removed as a whole word (it names the person, and is part of most paths). */
  user?: string;
  /** The app's own folder: paths inside it become `<app>/…` (stack frames), every other path becomes `<path>`. */
  appRoot?: string;
}

const PHOTO_EXTENSIONS = 'jpe?g|jpe|jfif|png|tiff?|webp|heic|heif|avif|gif|bmp|dng|cr2|cr3|crw|nef|nrw|arw|srf|sr2|raf|orf|rw2|pef|srw|x3f|3fr|iiq|erf|mef|mos|raw|psd|xmp';
const PHOTO_NAME = new RegExp(`[^\\s"'\`/\\\\()<>\\[\\]]+\\.(?:${PHOTO_EXTENSIONS})\\b`, 'gi');
const URL = /\b([a-z][a-z0-9+.-]*):\/\/([^\s"'`<>/]*)([^\s"'`<>]*)/gi;
// A path starts at /, ~/, X:\ or X:/, \\server, after a delimiter or at the start, and runs to a quote, a bracket or
// a line end. The look-behind keeps "and/or", "1/2", URLs (scheme://host/…) and the `<app>/…` markers out of it.
// A colon followed by a space ends it too ("open /x/y.jpg: permission denied"); trailing spaces stay outside.
const PATH = /(?<![\w.<>:/])(?:~[\\/]|\/(?=[^\s/])|[A-Za-z]:[\\/]|\\\\)(?:[^"'`\n\r()<>[\]{}:]|:(?!\s))*/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Both spellings of a Windows folder (C:\Users\ann and C:/Users/ann) and, inside JSON, its escaped form. */
function spellings(path: string): string[] {
  const forward = path.replace(/\\/g, '/');
  const back = path.replace(/\//g, '\\');
  return [...new Set([path, forward, back, back.replace(/\\/g, '\\\\')])].filter((p) => p.length > 1).sort((a, b) => b.length - a.length);
}

/** Longer strings are cut (after the secrets are masked, so no half of one survives): the regular expressions below
 * stay fast on a huge log field, and a report needs no more of one. */
const MAX_STRING = 4096;

export function scrubText(text: string, options: ScrubOptions = {}): string {
  let out = redactSecrets(text, options.secrets ?? []);
  if (out.length > MAX_STRING) out = `${out.slice(0, MAX_STRING)}… (${out.length - MAX_STRING} more characters)`;
  out = out.replace(URL, (_whole, scheme: string, host: string, rest: string) =>
    // A URL keeps its scheme and host (which service, which ledger), never its user, password, path or query.
    scheme.toLowerCase() === 'file' ? '<path>' : `${scheme}://${host.replace(/^[^@]*@/, '')}${rest ? '/<…>' : ''}`);
  if (options.appRoot) {
    for (const root of spellings(options.appRoot)) {
      out = out.replace(new RegExp(`${escapeRegExp(root)}(?=[\\\\/])([^"'\`\\n\\r()<>\\[\\]{}\\s]*)`, 'g'), (_m, rest: string) => `<app>${rest.replace(/\\\\?/g, '/')}`);
    }
  }
  if (options.home) {
    for (const home of spellings(options.home)) out = out.split(home).join('<home>');
  }
  const keepTrailingSpace = (match: string) => `<path>${/\s*$/.exec(match)![0]}`;
  out = out.replace(/(?:[A-Za-z]:)?<home>(?:[^"'`\n\r()<>[\]{}:]|:(?!\s))*/g, keepTrailingSpace);
  out = out.replace(PATH, keepTrailingSpace);
  out = out.replace(PHOTO_NAME, '<photo>');
  // A whole word in any script (\b is ASCII-only: it never matches around Ö or Ł).
  if (options.user && options.user.length >= 2) out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(options.user)}(?![\\p{L}\\p{N}_])`, 'giu'), '<user>');
  return out;
}

/** Every string in a value (a log record, its fields) scrubbed; keys are kept, values that are not strings too. */
export function scrubValue<T>(value: T, options: ScrubOptions = {}): T {
  if (typeof value === 'string') return scrubText(value, options) as T;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, options)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, options)])) as T;
  }
  return value;
}
