import { useEffect, useState } from 'react';
import { useT } from '../i18n';
import { useApp } from '../store/context';
import type { Notice } from '../store/state';

const AUTO_DISMISS_MS = 6_000;

function NoticeItem({ notice, dismiss }: { notice: Notice; dismiss: (id: number) => void }) {
  const t = useT('components');
  const [open, setOpen] = useState(false);
  const onDismiss = () => dismiss(notice.id);
  useEffect(() => {
    // Errors stay until dismissed: a photographer may be away from the screen when a batch fails.
    if (notice.level === 'error' || open) return;
    const timer = setTimeout(() => dismiss(notice.id), AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [notice.level, notice.id, open, dismiss]);
  return (
    <div className={`notice notice-${notice.level}`} role={notice.level === 'error' ? 'alert' : 'status'}>
      <div className="notice-body">
        <p>{notice.message}</p>
        {open && notice.detail && <pre className="error-detail">{notice.detail}</pre>}
      </div>
      {notice.detail && (
        <button type="button" className="btn btn-link" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('Notices.hideDetails') : t('Notices.details')}
        </button>
      )}
      <button type="button" className="btn btn-icon" aria-label={t('Notices.dismiss')} onClick={onDismiss}>✕</button>
    </div>
  );
}

export function Notices() {
  const t = useT('components');
  const notices = useApp((s) => s.notices);
  const dismiss = useApp((s) => s.dismissNotice);
  return (
    <section className="notices" aria-label={t('Notices.region')} aria-live="polite">
      {notices.map((n) => <NoticeItem key={n.id} notice={n} dismiss={dismiss} />)}
    </section>
  );
}
