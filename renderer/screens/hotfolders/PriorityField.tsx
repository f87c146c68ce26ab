import { useId, useState } from 'react';
import { useT } from '../../i18n';

// A hot folder's queue priority (issue 32 #5): its batches are sent before (higher) or after (lower) other batches
// waiting in the engine. The field keeps what is typed; anything but a whole number in range reaches the draft as
// NaN, which the editor does not save (the field says why).

const MIN = -100;
const MAX = 100;

export function PriorityField({ value, onChange }: { value: number; onChange: (priority: number) => void }) {
  const t = useT('hotfolders');
  const id = useId();
  const hintId = useId();
  const [text, setText] = useState(String(value));
  const parsed = /^[+-]?\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  const valid = parsed >= MIN && parsed <= MAX;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">{t('Priority.label')}</label>
      <input
        id={id}
        className="input"
        type="number"
        min={MIN}
        max={MAX}
        step={1}
        value={text}
        aria-describedby={hintId}
        aria-invalid={!valid}
        onChange={(e) => {
          setText(e.target.value);
          const next = /^[+-]?\d{1,3}$/.test(e.target.value.trim()) ? Number(e.target.value.trim()) : Number.NaN;
          onChange(next >= MIN && next <= MAX ? next : Number.NaN);
        }}
      />
      <p id={hintId} className={valid ? 'field-hint' : 'field-error'} role={valid ? undefined : 'alert'}>
        {valid
          ? t('Priority.hint')
          : t('Priority.problem', { min: MIN, max: MAX })}
      </p>
    </div>
  );
}
