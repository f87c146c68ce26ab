import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, launchChromium, ROOT, startUi, type RunningUi } from './ui-support';

// The app in other languages, in the real browser host and Debian's Chromium (issue 33 #2). The browser's locale is
// the "OS language" here (navigator.languages), so these runs also prove the app follows it with settings untouched:
// - the pseudo-locale (en-XA: every message accented and 40 % longer) at the smallest window, 1024×700, on every
//   screen: no text may be clipped or run out of its box, and no English may be left (hard-coded text);
// - a German and a Japanese screenshot of every screen, for a person to look at (test-artifacts/i18n-screenshots/).

const SHOT_DIR = join(ROOT, 'test-artifacts', 'i18n-screenshots');
/** The sidebar's order (renderer/components/Sidebar.tsx). */
const SCREENS = ['workflows', 'queue', 'review', 'hot-folders', 'history', 'settings'] as const;

let work: string;
let ui: RunningUi;
let browser: Browser;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-i18n-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: join(work, 'home') });
  browser = await launchChromium();
  mkdirSync(SHOT_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function openApp(locale: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 700 }, colorScheme: 'light', locale });
  const page = await context.newPage();
  await page.goto(ui.url);
  await page.locator('.balance:not(.balance-unknown)').waitFor();
  return page;
}

/** Shows one screen through the sidebar (its words differ per language; its order does not). */
async function show(page: Page, index: number): Promise<void> {
  await page.locator('.sidebar .nav-item').nth(index).click();
  await page.waitForTimeout(300);
  // The Workflows screen with a workflow chosen: the form is where most of the words are.
  if (index === 0) {
    await page.locator('.workflow-pick').first().click();
    await page.locator('form.workflow-form').waitFor();
  }
}

interface Problem { screen: string; kind: string; text: string; detail: string }

/**
 * Text that does not fit: an element with text of its own whose content is wider (or, when it hides overflow,
 * taller) than its box, where the box neither scrolls nor cuts with an ellipsis on purpose; and a page wider than the
 * window. Only what is visible counts.
 */
function layoutProblems(page: Page, screen: string): Promise<Problem[]> {
  return page.evaluate(`(() => {
    const problems = [];
    const ownText = (el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
    for (const el of document.querySelectorAll('body *')) {
      const text = ownText(el);
      if (!text || el.closest('[aria-hidden=true], .visually-hidden, script, style, option')) continue;
      const r = el.getBoundingClientRect();
      // A box of a pixel or two is the visually-hidden pattern (the skip link until it has the focus): not shown.
      if (r.width <= 2 || r.height <= 2) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'contents') continue;
      const scrolls = (v) => v === 'auto' || v === 'scroll';
      const cutOnPurpose = style.textOverflow === 'ellipsis';
      const name = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      if (!scrolls(style.overflowX) && !cutOnPurpose && el.scrollWidth > el.clientWidth + 1 && style.display !== 'inline') {
        problems.push({ screen: ${JSON.stringify(screen)}, kind: 'wider than its box', text: text.slice(0, 60), detail: name + ' ' + el.scrollWidth + '>' + el.clientWidth });
      }
      const hides = style.overflowY === 'hidden' || style.overflowY === 'clip';
      if (hides && el.scrollHeight > el.clientHeight + 1) {
        problems.push({ screen: ${JSON.stringify(screen)}, kind: 'cut off at the bottom', text: text.slice(0, 60), detail: name + ' ' + el.scrollHeight + '>' + el.clientHeight });
      }
      if (r.right > window.innerWidth + 1 && !el.closest('main, .dialog-body')) {
        problems.push({ screen: ${JSON.stringify(screen)}, kind: 'outside the window', text: text.slice(0, 60), detail: name + ' right ' + Math.round(r.right) });
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1) {
      problems.push({ screen: ${JSON.stringify(screen)}, kind: 'page wider than the window', text: '', detail: document.documentElement.scrollWidth + '>' + window.innerWidth });
    }
    return problems;
  })()`);
}

/**
 * Visible English words the pseudo-locale would have accented: a run of three or more plain ASCII letters in text
 * that came from a catalog would not be there. Names from the service (workflow names, tags), the product name, format
 * words and paths are left out, as the catalogs leave them.
 */
function untranslated(page: Page, screen: string): Promise<Problem[]> {
  return page.evaluate(`(() => {
    const keep = /^(Batchroom|JPEG|PNG|TIFF|WebP|HEIC|AVIF|RAW|XMP|JSON|CSV|sRGB|EXIF|IPTC|GPS|DPI|LZW|API|URL|TLS|Lightroom|Capture|One|Display|Adobe|RGB|ProPhoto|PostgreSQL|PGPASSWORD|pgpass|px)$/;
    // Words from the service (workflows, their fields and tags, the credit breakdown), sentences main writes in
    // English ([data-from=main]), code and paths; and the updater's section, still being converted by its engineer.
    const service = '.workflow-name, .workflow-desc, .tag, .catalog .chip, .form-header, .workflow-form > .panel:first-of-type .field-label, '
      + '.workflow-form > .panel:first-of-type .field-hint, .chip-option, option, '
      + '.tooltip-list, [data-from=main], .mono, code, .error-detail, section[aria-label=Updates]';
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('[aria-hidden=true], .visually-hidden, script, style, ' + service)) continue;
      if (!el.getClientRects().length) continue;
      const words = (n.textContent.match(/[A-Za-z]{3,}/g) || []).filter((w) => !keep.test(w));
      if (words.length) out.push({ screen: ${JSON.stringify(screen)}, kind: 'English left', text: n.textContent.trim().slice(0, 60), detail: words.join(' ') });
    }
    return out;
  })()`);
}

describe('the pseudo-locale at 1024×700', () => {
  it('is chosen from the browser’s language (en-XA) and shows accented, longer text', async () => {
    const page = await openApp('en-XA');
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en');
    const settings = await page.locator('.sidebar .nav-item').nth(5).innerText();
    expect(settings).toMatch(/⟦Şḗŧŧīƞɠş ·+⟧/);
    await page.context().close();
  });

  it('has no clipped or overflowing text on any screen', async () => {
    const page = await openApp('en-XA');
    const problems: Problem[] = [];
    for (const [index, screen] of SCREENS.entries()) {
      await show(page, index);
      problems.push(...await layoutProblems(page, screen));
    }
    await page.context().close();
    expect(problems).toEqual([]);
  });

  it('finds text that does not fit (the check itself, on a box too narrow for its words)', async () => {
    const page = await openApp('en-XA');
    await page.evaluate(`(() => {
      const p = document.createElement('p');
      p.style.cssText = 'width: 60px; white-space: nowrap; overflow: hidden';
      p.textContent = 'A sentence far too long for sixty pixels';
      document.querySelector('main').prepend(p);
    })()`);
    const found = await layoutProblems(page, 'fixture');
    await page.context().close();
    expect(found).toContainEqual(expect.objectContaining({ kind: 'wider than its box', text: 'A sentence far too long for sixty pixels' }));
  });

  it('leaves no English on any screen (Workflows with a form) or in the frame', async () => {
    const page = await openApp('en-XA');
    const left: Problem[] = [];
    for (const index of [0, 1, 2, 3, 4, 5]) {
      await show(page, index);
      left.push(...await untranslated(page, SCREENS[index]!));
    }
    await page.context().close();
    expect(left).toEqual([]);
  });
});

describe('German and Japanese', () => {
  for (const [locale, language, settingsWord] of [['de-DE', 'de', 'Einstellungen'], ['ja-JP', 'ja', '設定']] as const) {
    it(`follows the browser's language (${locale}) and writes a screenshot of every screen`, async () => {
      const page = await openApp(locale);
      expect(await page.evaluate('document.documentElement.lang')).toBe(language);
      expect(await page.locator('.sidebar .nav-item').nth(5).innerText()).toContain(settingsWord);
      if (language === 'ja') {
        // A screenshot of empty boxes proves nothing: with no CJK font (Debian: fonts-noto-cjk, in .ci/run) every
        // character is drawn as the same "missing glyph" box, so two different characters give the same pixels.
        const differ = await page.evaluate(`(() => {
          const draw = (ch) => {
            const c = document.createElement('canvas'); c.width = 40; c.height = 40;
            const g = c.getContext('2d'); g.font = '32px ' + getComputedStyle(document.body).fontFamily; g.fillText(ch, 2, 34);
            return Array.from(g.getImageData(0, 0, 40, 40).data).join(',');
          };
          return draw('設') !== draw('定');
        })()`);
        expect(differ, 'Japanese glyphs render (install fonts-noto-cjk)').toBe(true);
      }
      for (const [index, screen] of SCREENS.entries()) {
        await show(page, index);
        const path = join(SHOT_DIR, `${screen}-${language}.png`);
        await page.screenshot({ path });
        // Evidence only if it shows something: a blank or single-colour page has almost no contrast.
        const { channels } = await sharp(path).greyscale().stats();
        expect(channels[0]!.stdev, path).toBeGreaterThan(8);
      }
      await page.context().close();
    });
  }
});
