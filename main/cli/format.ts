import { formatCredits } from '../../shared/engine/money';

/** Left-aligned text table with a header row; columns sized to their widest cell. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)].join('\n');
}

/** "13 credits", or "13 free test credits" against the sandbox or with a test key: the app's formatter too. */
export const credits = formatCredits;

export function duration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '–';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** The width lines are fitted to: the terminal's when there is one, else 80 (logs, pipes, CI). */
export function lineWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number {
  return stream.isTTY && stream.columns && stream.columns > 0 ? stream.columns : 80;
}

/** Shortens `text` to `max` characters with "…" in the middle, keeping its end (a file name's number and extension). */
export function elide(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return '…'.slice(0, max);
  // More of the end than of the start: a camera's names differ in their number, just before the extension.
  const tail = Math.min(Math.ceil((max - 1) * 0.6), 12);
  return `${text.slice(0, max - 1 - tail)}…${text.slice(text.length - tail)}`;
}

/**
 * Word-wraps `text` to `width` columns, continuation lines starting with `indent`, so a terminal never wraps or cuts
 * it mid-word. A single word longer than the line (a long path) stays whole on a line of its own: cut, it could not be
 * copied.
 */
export function wrap(text: string, width = 80, indent = '    '): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    // Words with the spaces before them, so columns padded with several spaces keep their alignment.
    const words = [...paragraph.matchAll(/( *)(\S+)/g)].map(([, gap, word]) => ({ gap: gap!, word: word! }));
    if (words.length === 0) {
      lines.push(paragraph.trimEnd());
      continue;
    }
    let line = '';
    for (const [i, { gap, word }] of words.entries()) {
      if (i > 0 && line.length + gap.length + word.length > width) {
        lines.push(line);
        line = indent + word;
      } else {
        line += gap + word;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** `wrap` joined back into one string. */
export function fit(text: string, width = 80, indent = '    '): string {
  return wrap(text, width, indent).join('\n');
}
