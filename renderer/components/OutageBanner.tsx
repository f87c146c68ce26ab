import { useEffect, useState } from 'react';
import { useT } from '../i18n';
import { useApp } from '../store/context';

/** Re-renders once a second while mounted, so "next try in 8 s" counts down. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Countdown({ nextTryAt, className }: { nextTryAt: number | null; className: string }) {
  const now = useNow();
  const t = useT('components');
  // The words of shared/engine/outage-text.ts (the CLI's, English), in the page's language.
  const seconds = nextTryAt === null ? 0 : Math.ceil((nextTryAt - now) / 1000);
  return (
    <p className={className} role="status">
      <span className="warn-icon" aria-hidden="true">⚠</span> {seconds > 0 ? t('OutageBanner.retryingIn', { seconds }) : t('OutageBanner.retryingNow')}
    </p>
  );
}

/**
 * "Can't reach the service — retrying (next try in 8 s)", shown while the engine's health probes fail. Nothing to
 * click: the engine resumes the batches it paused as soon as the service answers again.
 */
export function OutageBanner({ variant }: { variant: 'header' | 'batch' }) {
  const t = useT('components');
  const unreachable = useApp((s) => s.unreachable);
  if (!unreachable) {
    // A batch paused by an outage before this window saw the engine's state: say what is known.
    if (variant === 'header') return null;
    return <p className="outage-banner outage-batch" role="status"><span className="warn-icon" aria-hidden="true">⚠</span> {t('OutageBanner.retrying')}</p>;
  }
  return <Countdown nextTryAt={unreachable.nextTryAt} className={`outage-banner outage-${variant}`} />;
}
