import { useEffect, useState } from 'react';
import { unreachableMessage } from '../../shared/engine/outage-text';
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
  return (
    <p className={className} role="status">
      <span className="warn-icon" aria-hidden="true">⚠</span> {unreachableMessage({ nextTryAt }, now)}
    </p>
  );
}

/**
 * "Can't reach the service — retrying (next try in 8 s)", shown while the engine's health probes fail. Nothing to
 * click: the engine resumes the batches it paused as soon as the service answers again.
 */
export function OutageBanner({ variant }: { variant: 'header' | 'batch' }) {
  const unreachable = useApp((s) => s.unreachable);
  if (!unreachable) {
    // A batch paused by an outage before this window saw the engine's state: say what is known.
    if (variant === 'header') return null;
    return <p className="outage-banner outage-batch" role="status"><span className="warn-icon" aria-hidden="true">⚠</span> Can't reach the service — retrying</p>;
  }
  return <Countdown nextTryAt={unreachable.nextTryAt} className={`outage-banner outage-${variant}`} />;
}
