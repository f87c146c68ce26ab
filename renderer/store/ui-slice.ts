import type { UiSlice, SliceCreator } from './state';

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
