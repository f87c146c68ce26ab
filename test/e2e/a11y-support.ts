import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

// Accessibility and layout audits run inside the page: axe-core (the pinned devDependency, injected as a script
// tag, as the browser extension does) and a layout check that finds what a user at a small window cannot reach.

const AXE_PATH = createRequire(__filename).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string;
  nodes: number;
  /** The first few offending elements' selectors and axe's own explanation, to make a failure readable. */
  examples: string[];
}

/** Runs axe-core on the whole page (dialogs included) and returns its violations of every impact. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate<boolean>(`typeof window.axe === 'object'`))) await page.addScriptTag({ path: AXE_PATH });
  // Transitions (a dialog fading in, a tooltip) would make colour contrast read against a half-drawn background.
  await page.waitForTimeout(250);
  return page.evaluate<AxeViolation[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      nodes: v.nodes.length,
      examples: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + (n.failureSummary ?? '').split('\\n').slice(0, 2).join(' ')),
    }));
  })()`);
}

/** The violations a user is blocked by: axe's serious and critical ones. */
export function blocking(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * What is wrong with the window's layout, in words (empty when nothing is):
 * - the document itself scrolls (the shell is taller or wider than the window: a second scrollbar beside main's);
 * - two scroll containers are nested and both scroll the same way (two scrollbars for one column);
 * - an element that hides its overflow has content cut off (except single-line text ending in an ellipsis,
 *   which is a deliberate, visible truncation with the full text in a title), or a button's label is wider
 *   than the button;
 * - a control lies outside the window or outside an ancestor that clips without scrolling: nobody can reach it.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const problems = [];
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    const doc = document.scrollingElement;
    if (doc.scrollHeight > innerHeight + 1) problems.push('the page scrolls: ' + doc.scrollHeight + ' px tall in a ' + innerHeight + ' px window');
    if (doc.scrollWidth > innerWidth + 1) problems.push('the page scrolls sideways: ' + doc.scrollWidth + ' px wide in a ' + innerWidth + ' px window');

    const shown = (el) => { const s = getComputedStyle(el); return s.display !== 'none' && s.visibility !== 'hidden' && el.getClientRects().length > 0; };
    const scrolls = (s, axis) => s['overflow' + axis] === 'auto' || s['overflow' + axis] === 'scroll';
    // Paint containment (contain: strict/content/paint) clips like overflow: clip does.
    const clips = (s, axis) => s['overflow' + axis] === 'hidden' || s['overflow' + axis] === 'clip' || /strict|content|paint/.test(s.contain);
    const hiddenText = (el) => el.closest('.visually-hidden') !== null;
    const all = [...document.querySelectorAll('body *')].filter(shown);

    const scrollingY = all.filter((el) => scrolls(getComputedStyle(el), 'Y') && el.scrollHeight > el.clientHeight + 1);
    // A dialog is a layer of its own: its scrolling body is not a second scrollbar for the page behind it.
    const layer = (el) => el.closest('[role=dialog]');
    for (const outer of scrollingY) {
      const inner = scrollingY.find((el) => el !== outer && outer.contains(el) && layer(el) === layer(outer));
      if (inner) problems.push('two vertical scrollbars: ' + name(inner) + ' scrolls inside ' + name(outer));
    }

    const tiny = (el) => { const r = el.getBoundingClientRect(); return r.width <= 1 && r.height <= 1; };
    for (const el of all) {
      if (hiddenText(el) || tiny(el)) continue;
      const s = getComputedStyle(el);
      const ellipsis = s.textOverflow === 'ellipsis' && s.whiteSpace === 'nowrap';
      // A text field scrolls its own text: a long path in a short field is not cut off.
      if (el.matches('input, textarea, select')) continue;
      // A button's label wider than the button spills under its neighbour, which paints over it ("Origina").
      if (el.matches('button') && !ellipsis && el.scrollWidth > el.clientWidth + 1) problems.push('label wider than its button: ' + name(el) + ' "' + el.textContent.trim().slice(0, 30) + '"');
      if (clips(s, 'X') && !ellipsis && el.scrollWidth > el.clientWidth + 1) problems.push('cut off sideways: ' + name(el) + ' (' + el.scrollWidth + ' px of content in ' + el.clientWidth + ' px)');
      if (clips(s, 'Y') && el.scrollHeight > el.clientHeight + 1) problems.push('cut off at the bottom: ' + name(el) + ' (' + el.scrollHeight + ' px of content in ' + el.clientHeight + ' px)');
    }

    const controls = all.filter((el) => el.matches('button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])') && !hiddenText(el) && getComputedStyle(el).opacity !== '0');
    for (const el of controls) {
      let box = el.getBoundingClientRect();
      // Controls for assistive technology only (a skip link until it has focus, a file input behind its button).
      if (box.width <= 1 && box.height <= 1) continue;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const s = getComputedStyle(up);
        const r = up.getBoundingClientRect();
        // A scrolling ancestor can bring the control into view: from here on, the ancestor is what must be reachable.
        if (scrolls(s, 'Y') || scrolls(s, 'X')) { box = r; continue; }
        const outX = clips(s, 'X') && (box.right < r.left + 1 || box.left > r.right - 1);
        const outY = clips(s, 'Y') && (box.bottom < r.top + 1 || box.top > r.bottom - 1);
        if (outX || outY) { problems.push('unreachable: ' + name(el) + ' "' + (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40) + '" is outside ' + name(up)); break; }
      }
      if (box.bottom > innerHeight + 1 || box.right > innerWidth + 1 || box.top < -1 || box.left < -1) {
        problems.push('unreachable: ' + name(el) + ' "' + (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40) + '" lies outside the window');
      }
    }
    return [...new Set(problems)];
  })()`);
}

/** The window sizes every screen must fit: a common laptop, and the smallest supported window. */
export const AUDIT_SIZES = [{ width: 1440, height: 900 }, { width: 1024, height: 700 }] as const;

/**
 * Audits what is on screen now: exactly one <h1>, the layout at both sizes, axe-core in the light and the dark
 * theme (through prefers-color-scheme, so the app's theme setting must be "System"). Returns every problem in
 * words, and axe's full findings for the report. Leaves the page at 1440×900 in the light theme.
 */
export async function auditScreen(page: Page, screen: string): Promise<{ problems: string[]; axe: { theme: string; violations: AxeViolation[] }[] }> {
  const problems: string[] = [];
  const axe: { theme: string; violations: AxeViolation[] }[] = [];
  const h1 = await page.locator('h1').count();
  if (h1 !== 1) problems.push(`${h1} <h1> elements (one is expected)`);
  for (const size of AUDIT_SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(100);
    // A11Y_SHOTS=<dir> keeps a picture of each screen at each size, to look at what the checks measured.
    if (process.env.A11Y_SHOTS) await page.screenshot({ path: join(process.env.A11Y_SHOTS, `${screen}-${size.width}.png`) });
    problems.push(...(await layoutProblems(page)).map((p) => `${size.width}×${size.height}: ${p}`));
  }
  await page.setViewportSize(AUDIT_SIZES[0]);
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (let n = 0; n < 20 && (await page.evaluate<string | undefined>(`document.documentElement.dataset.theme`)) !== theme; n++) await page.waitForTimeout(50);
    const violations = await runAxe(page);
    axe.push({ theme, violations });
    problems.push(...blocking(violations).map((v) => `${theme}: ${v.id} (${v.impact}, ${v.nodes} elements) ${v.examples.join(' | ')}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return { problems, axe };
}
