import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Rectangle, WindowPort } from './ports';

const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean().default(false),
  fullScreen: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, maximized: false, fullScreen: false };

/**
 * The saved size and place, or the default when the file is missing or damaged. A position that is no longer on
 * any display (a monitor was unplugged) is dropped so the window opens centred instead of off-screen.
 */
export function loadWindowState(file: string, workAreas: readonly Rectangle[]): WindowState {
  let state: WindowState;
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return { ...DEFAULT_WINDOW_STATE };
    state = parsed.data;
  } catch {
    return { ...DEFAULT_WINDOW_STATE };
  }
  if (state.x === undefined || state.y === undefined) return { ...state, x: undefined, y: undefined };
  const visible = workAreas.some((area) => overlap(area, { x: state.x!, y: state.y!, width: state.width, height: state.height }) >= 100 * 100);
  return visible ? state : { ...state, x: undefined, y: undefined };
}

function overlap(a: Rectangle, b: Rectangle): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  writeFileSync(temp, JSON.stringify(state));
  renameSync(temp, file);
}

export function captureWindowState(win: WindowPort): WindowState {
  const bounds = win.getNormalBounds();
  return {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.max(400, Math.round(bounds.width)),
    height: Math.max(300, Math.round(bounds.height)),
    maximized: win.isMaximized(),
    fullScreen: win.isFullScreen(),
  };
}

/** Saves the window's state after it settles (moves and resizes are debounced) and when it closes. */
export function trackWindowState(
  win: WindowPort,
  save: (state: WindowState) => void,
  options: { debounceMs?: number } = {},
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const snapshot = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!win.isDestroyed()) save(captureWindowState(win));
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(snapshot, options.debounceMs ?? 500);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) win.on(event, later);
  win.on('close', () => snapshot());
}
