import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';

// Screenshots are evidence only if something looks at them. Each one is reduced to a small greyscale thumbnail and
// compared with a committed baseline (test/e2e/baselines): the layout, the theme and what fills the screen must stay
// close; text, temp paths and font hinting are far below a thumbnail pixel and cannot make it flaky. A missing
// baseline is written on a developer's machine (as vitest writes a new snapshot) and is an error in CI.
// `UPDATE_SCREENSHOTS=1` rewrites them after an intended visual change.

const ROOT = resolve(import.meta.dirname, '../..');
export const SCREENSHOT_DIR = join(ROOT, 'test-artifacts', 'screenshots');
const BASELINE_DIR = join(import.meta.dirname, 'baselines');
const THUMB = { width: 68, height: 43 };

export interface Shot {
  name: string;
  theme: string;
  path: string;
  /** Mean and standard deviation of the luminance, 0–255. */
  mean: number;
  stdev: number;
  /** Mean absolute luminance difference from the baseline thumbnail, 0–255 (0 when the baseline was just written). */
  drift: number;
}

/**
 * The largest drift accepted. Measured: the same screen in two runs drifts ≤ 0.62 (most ≤ 0.04); two different
 * screens sharing the app's frame drift 3.4 (no key vs settings) to 5.5 (hot folders vs settings), a changed
 * theme or layout 38–79. Within a screen, small state changes (a running vs a finished bar, 1.3) pass on purpose.
 */
export const MAX_DRIFT = 2.5;

async function thumbnail(png: Buffer): Promise<Buffer> {
  return sharp(png).greyscale().resize(THUMB.width, THUMB.height, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
}

function meanAbsDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Saves `<name>-<theme>.png` under test-artifacts/screenshots/ and compares it with its baseline. */
const NOTICES_OUT_OF_PICTURE = '.notice[role=status], .notices:not(:has(.notice[role=alert])) { display: none !important; }';

export async function screenshot(page: Page, name: string): Promise<Shot> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const theme = await page.evaluate<string>(`document.documentElement.dataset.theme ?? 'light'`);
  const path = join(SCREENSHOT_DIR, `${name}-${theme}.png`);
  await page.waitForTimeout(150); // let transitions settle
  // Info notices leave on their own after 6 s and move the page while they show: whether one is still there is the
  // machine's speed, not the screen. They are left out of the picture (errors stay: they are part of the screen).
  const png = await page.screenshot({ path, style: NOTICES_OUT_OF_PICTURE });
  const { channels } = await sharp(png).greyscale().stats();
  const thumb = await thumbnail(png);
  const baselinePath = join(BASELINE_DIR, `${name}-${theme}.png`);
  let drift = 0;
  if (existsSync(baselinePath) && process.env.UPDATE_SCREENSHOTS !== '1') {
    const baseline = await sharp(readFileSync(baselinePath)).greyscale().raw().toBuffer();
    drift = meanAbsDifference(thumb, baseline);
  } else if (process.env.CI && process.env.UPDATE_SCREENSHOTS !== '1') {
    throw new Error(`no screenshot baseline ${baselinePath}: run the e2e tests locally (or with UPDATE_SCREENSHOTS=1) and commit it`);
  } else {
    mkdirSync(BASELINE_DIR, { recursive: true });
    writeFileSync(baselinePath, await sharp(thumb, { raw: { ...THUMB, channels: 1 } }).png().toBuffer());
  }
  if (process.env.SCREENSHOT_DRIFT_LOG) process.stdout.write(`drift ${name}-${theme} ${drift.toFixed(2)}\n`);
  return { name, theme, path, mean: channels[0]!.mean, stdev: channels[0]!.stdev, drift };
}

/** Throws unless the shot is close to its baseline and is not a blank screen. */
export function expectLooksRight(shot: Shot): void {
  if (shot.stdev < 8) throw new Error(`${shot.name}-${shot.theme} is nearly blank (luminance σ ${shot.stdev.toFixed(1)})`);
  if (shot.drift > MAX_DRIFT) throw new Error(`${shot.name}-${shot.theme} drifted ${shot.drift.toFixed(1)} from its baseline (max ${MAX_DRIFT}); see ${shot.path}. If the change is intended: UPDATE_SCREENSHOTS=1 npm run test:e2e, then commit test/e2e/baselines`);
}
