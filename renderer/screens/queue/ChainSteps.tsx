import type { ChainMark } from '../../../shared/engine/model';
import { useT } from '../../i18n';

/**
 * A chain's steps (issue 32 #3), shown on each step's batch: every step is a batch of its own (paid once, resumable),
 * so the queue says where this one stands — "Step 2 of 3" — and lists the steps with this one marked.
 */
export function ChainSteps({ chain }: { chain: ChainMark }) {
  const t = useT('queue');
  return (
    <div className="chain-steps">
      <span className="badge badge-neutral">{t('ChainSteps.label', { step: chain.step, steps: chain.steps })}</span>
      {chain.names.length === chain.steps && (
        <ol className="chain-step-list" aria-label={t('ChainSteps.ariaLabel')}>
          {chain.names.map((name, index) => (
            <li key={`${index}-${name}`} aria-current={index + 1 === chain.step ? 'step' : undefined} className={index + 1 === chain.step ? 'current' : undefined}>
              {name}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
