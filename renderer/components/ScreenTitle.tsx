import type { ReactNode } from 'react';

/**
 * The screen's one <h1>: what a screen reader's heading list starts with. Screens whose title would only repeat the
 * sidebar keep it for assistive technology alone (`hidden`). It takes focus (tabIndex -1) when a dialog closes
 * and the element that opened it is gone, so the focus lands at the top of the screen rather than on <body>.
 */
export function ScreenTitle({ children, hidden = false }: { children: ReactNode; hidden?: boolean }) {
  return <h1 className={hidden ? 'visually-hidden' : 'screen-title'} data-screen-title tabIndex={-1}>{children}</h1>;
}
