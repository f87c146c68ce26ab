import { useId } from 'react';

/** A labelled select over a fixed list of values, each shown by its label: the one shape of every policy menu. */
export function SelectField<T extends string>({ label, id, value, options, labels, onChange }: {
  label: string;
  /** A stable id when other markup points at the field; otherwise one is made. */
  id?: string;
  value: T;
  options: readonly T[];
  labels: Readonly<Record<T, string>>;
  onChange: (value: T) => void;
}) {
  const fallback = useId();
  const fieldId = id ?? fallback;
  return (
    <div className="field">
      <label className="field-label" htmlFor={fieldId}>{label}</label>
      <select id={fieldId} className="input" value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((option) => <option key={option} value={option}>{labels[option]}</option>)}
      </select>
    </div>
  );
}
