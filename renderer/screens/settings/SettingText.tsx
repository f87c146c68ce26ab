import { useEffect, useId, useState, type ReactNode } from 'react';

/**
 * A text setting edited locally and saved on blur or Enter, checked first by `validate` so a typo never
 * reaches main (and a refusal from main puts the saved value back).
 */
export function SettingText({ label, value, onSave, validate, hint, mono, type = 'text', preview, placeholder }: {
  label: string;
  placeholder?: string;
  value: string;
  onSave: (value: string) => Promise<boolean>;
  validate?: (value: string) => string | null;
  hint?: ReactNode;
  mono?: boolean;
  type?: 'text' | 'number' | 'url';
  preview?: (value: string) => ReactNode;
}) {
  const [text, setText] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  useEffect(() => setText(value), [value]);

  const commit = async () => {
    if (text === value) return;
    const problem = validate?.(text) ?? null;
    setError(problem);
    if (problem) return;
    if (!(await onSave(text))) setText(value);
  };

  return (
    <div className="field">
      <label htmlFor={id} className="field-label">{label}</label>
      <input
        id={id}
        type={type}
        className={`input${mono ? ' input-mono' : ''}`}
        value={text}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(validate?.(e.target.value) ?? null);
        }}
        onBlur={() => void commit()}
        onKeyDown={(e) => e.key === 'Enter' && void commit()}
      />
      {preview?.(text)}
      {hint && <p className="field-hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  );
}
