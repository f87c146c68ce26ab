import { APP_VIEWS, type AppView } from '../../shared/ipc/channels/files';
import type { UiError } from '../lib/errors';
import type { SliceCreator } from './types';


export const VIEWS = APP_VIEWS;
export type View = AppView;

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** Technical detail, shown on request. */
  detail?: string;
}

export interface UiSlice {
  view: View;
  notices: Notice[];
  setView(view: View): void;
  notify(level: Notice['level'], message: string, detail?: string): void;
  notifyError(error: UiError): void;
  dismissNotice(id: number): void;
}

let nextNoticeId = 1;
const MAX_NOTICES = 5;

export const createUiSlice: SliceCreator<UiSlice> = (set, get) => ({
  view: 'workflows',
  notices: [],
  setView: (view) => set({ view }),
  notify: (level, message, detail) =>
    set((s) => ({ notices: [...s.notices, { id: nextNoticeId++, level, message, detail }].slice(-MAX_NOTICES) })),
  notifyError: (error) => get().notify('error', error.title, error.detail),
  dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
});
