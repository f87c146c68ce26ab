import { useEffect, useRef, type ReactNode } from 'react';
import { useT } from '../i18n';

/** What Tab stops on: enabled controls, not the ones a roving tabindex or a hidden input has taken out. */
const TABBABLE = 'button:not([disabled]):not([tabindex="-1"]), input:not([disabled]):not([tabindex="-1"]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

// The last element the user had focused. A dialog is often opened by a button that is disabled while the dialog's
// data loads ("Review batch…" while the estimate runs): Chromium then moves the focus to <body>, and the opener is
// only known from here.
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (e) => {
    if (e.target instanceof HTMLElement && e.target !== document.body) lastFocused = e.target;
  });
}

const usable = (el: HTMLElement | null): el is HTMLElement =>
  el !== null && el !== document.body && el.isConnected && !(el as HTMLButtonElement).disabled;

/**
 * Where the focus goes when a dialog closes: back to its opener when that can take it, otherwise to the title of
 * the screen now shown (Start leaves for the queue), then <main> — never <body>, where a keyboard user is lost.
 */
function returnFocus(opener: HTMLElement | null): void {
  if (usable(opener)) return opener.focus();
  const fallback = document.querySelector<HTMLElement>('[data-screen-title]') ?? document.querySelector<HTMLElement>('main');
  fallback?.focus();
}

export function Dialog({ title, onClose, children, footer, wide }: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  const t = useT('components');
  const ref = useRef<HTMLDivElement>(null);
  // Who opened the dialog, read while rendering it (before anything in it takes the focus, and once: StrictMode
  // runs the effect below twice, the second time with the focus already inside).
  const openerRef = useRef<HTMLElement | null | undefined>(undefined);
  if (openerRef.current === undefined) {
    const active = document.activeElement as HTMLElement | null;
    openerRef.current = active && active !== document.body ? active : lastFocused;
  }
  useEffect(() => {
    const opener = openerRef.current ?? null;
    // The dialog's own choice first (Start, in the summary), then its first control in the body or footer: the
    // ✕ in the header comes first in the document but is the one control nobody opened the dialog for.
    const dialog = ref.current;
    const first = dialog?.querySelector<HTMLElement>('[data-autofocus]:not([disabled])')
      ?? dialog?.querySelector<HTMLElement>(`.dialog-body :is(${TABBABLE}), .dialog-footer :is(${TABBABLE})`)
      ?? dialog?.querySelector<HTMLElement>(TABBABLE);
    first?.focus();
    // Deferred: when the dialog closes because the screen changes, the next screen is in place by then.
    return () => void setTimeout(() => {
      if (document.activeElement === document.body || document.activeElement === null) returnFocus(opener);
    });
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
    } else if (e.key === 'Tab' && ref.current) {
      const focusable = [...ref.current.querySelectorAll<HTMLElement>(TABBABLE)];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} className={`dialog${wide ? ' dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-label={title} onKeyDown={onKeyDown}>
        <header className="dialog-header">
          <h2>{title}</h2>
          <button type="button" className="btn btn-icon" aria-label={t('Dialog.close')} onClick={onClose}>✕</button>
        </header>
        <div className="dialog-body">{children}</div>
        {footer && <footer className="dialog-footer">{footer}</footer>}
      </div>
    </div>
  );
}
