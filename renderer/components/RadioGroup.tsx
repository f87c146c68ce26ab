import type { ReactNode } from 'react';

export interface RadioOption<T> {
  value: T;
  /** What the button shows. */
  content: ReactNode;
  /** A fuller name for assistive technology; it must contain the visible text (axe: label-content-name-mismatch). */
  label?: string;
}

const STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * A single choice among a few buttons, as the WAI-ARIA radio group pattern has it: one Tab stop (the checked
 * option, or the first when none is), arrow keys move the choice and the focus together, Home/End jump to the ends.
 * The keys stop here, so a surrounding shortcut (Review's ← → for the next photo) does not also fire.
 */
export function RadioGroup<T>({ label, options, value, onChange, className, optionClassName }: {
  label: string;
  options: readonly RadioOption<T>[];
  value: T;
  onChange: (value: T) => void;
  className: string;
  optionClassName?: string;
}) {
  const checkedIndex = options.findIndex((o) => o.value === value);
  const tabStop = checkedIndex >= 0 ? checkedIndex : 0;

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const from = options.findIndex((_, i) => e.currentTarget.children[i] === document.activeElement);
    if (from < 0) return;
    let to: number;
    if (e.key in STEPS) to = (from + STEPS[e.key]! + options.length) % options.length;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = options.length - 1;
    else return;
    e.preventDefault();
    e.stopPropagation();
    (e.currentTarget.children[to] as HTMLElement | undefined)?.focus();
    onChange(options[to]!.value);
  };

  return (
    <div className={className} role="radiogroup" aria-label={label} onKeyDown={onKeyDown}>
      {options.map((o, i) => (
        <button
          key={String(o.value)}
          type="button"
          role="radio"
          className={optionClassName}
          aria-checked={i === checkedIndex}
          aria-label={o.label}
          tabIndex={i === tabStop ? 0 : -1}
          onClick={() => onChange(o.value)}
        >
          {o.content}
        </button>
      ))}
    </div>
  );
}
