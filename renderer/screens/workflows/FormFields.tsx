import { useId } from 'react';
import { ASPECT_RATIOS, DEFAULT_IMAGE_SIZE, IMAGE_SIZE_LONG_EDGE, IMAGE_SIZES, type AspectRatio, type SwitchField, type TextField } from '../../../shared/service/model';
import { RadioGroup } from '../../components/RadioGroup';
import { tr, useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? <p id={id} className="field-error" role="alert">{message}</p> : null;
}

export function TextFieldInput({ field, error }: { field: TextField; error?: string }) {
  const t = useT('workflows');
  const value = useApp((s) => s.form?.texts[field.id] ?? '');
  const { setText } = useActions();
  const id = useId();
  const errorId = `${id}-error`;
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    'aria-required': field.required || undefined,
  } as const;
  return (
    <div className="field" data-field={`text:${field.id}`}>
      <label htmlFor={id} className="field-label">
        {field.label}{field.required && <span className="required" aria-hidden="true"> *</span>}
      </label>
      {field.description && <p className="field-hint">{field.description}</p>}
      {field.presetOptions ? (
        <select className="input" {...common} value={value} onChange={(e) => setText(field.id, e.target.value)}>
          {!field.required && <option value="">{t('FormFields.serviceDefault')}</option>}
          {field.required && value === '' && <option value="">{t('FormFields.choose')}</option>}
          {field.presetOptions.map((o) => <option key={o.id} value={o.id}>{o.label}</option>)}
        </select>
      ) : (
        <input
          className="input"
          {...common}
          value={value}
          maxLength={field.maxLength ? field.maxLength + 50 : undefined}
          onChange={(e) => setText(field.id, e.target.value)}
        />
      )}
      {field.maxLength !== undefined && !field.presetOptions && (
        <p className="field-hint field-count">{value.length} / {field.maxLength}</p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export function SwitchChips({ field, error }: { field: SwitchField; error?: string }) {
  const selected = useApp((s) => s.form?.switches[field.id]);
  const { toggleSwitch } = useActions();
  const id = useId();
  return (
    <div className="field" data-field={`switch:${field.id}`}>
      <span id={`${id}-label`} className="field-label">{field.label}</span>
      {field.description && <p className="field-hint">{field.description}</p>}
      <div className="chip-row" role="group" aria-labelledby={`${id}-label`} aria-describedby={error ? `${id}-error` : undefined}>
        {field.options.map((o) => (
          <button key={o.id} type="button" className="chip chip-option" aria-pressed={selected?.includes(o.id) ?? false} onClick={() => toggleSwitch(field, o.id)}>
            {o.label}
          </button>
        ))}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A small rectangle in the ratio's proportions, so the eight choices read at a glance. */
function RatioShape({ ratio }: { ratio: AspectRatio }) {
  const [w, h] = ratio.split(':').map(Number) as [number, number];
  const scale = 26 / Math.max(w, h);
  return <span className="ratio-shape" aria-hidden="true" style={{ width: `${w * scale}px`, height: `${h * scale}px` }} />;
}

/** "Default = 1,024 px · 1K = 1,024 px · 2K = 2,048 px on the long edge", from the service's sizes in shared/. */
export function sizeHint(): string {
  const px = (n: number) => tr('workflows', 'FormFields.px', { n });
  return tr('workflows', 'FormFields.sizeHint', {
    defaultSize: px(IMAGE_SIZE_LONG_EDGE[DEFAULT_IMAGE_SIZE]),
    sizes: IMAGE_SIZES.map((s) => `${s} = ${px(IMAGE_SIZE_LONG_EDGE[s])}`).join(' · '),
  });
}

export function OutputOverrides() {
  const t = useT('workflows');
  const aspect = useApp((s) => s.form?.aspectRatio ?? null);
  const size = useApp((s) => s.form?.imageSize ?? null);
  const { setAspectRatio, setImageSize } = useActions();
  return (
    <fieldset className="field overrides">
      <legend className="field-label">{t('FormFields.outputShape')}</legend>
      <RadioGroup
        label={t('FormFields.aspectRatio')}
        className="ratio-grid"
        optionClassName="ratio-option"
        value={aspect}
        onChange={setAspectRatio}
        options={[
          { value: null, content: <><span className="ratio-shape ratio-original" aria-hidden="true" /><span>{t('FormFields.original')}</span></> },
          ...ASPECT_RATIOS.map((r) => ({ value: r, label: t('FormFields.aspectRatioOf', { ratio: r }), content: <><RatioShape ratio={r} /><span>{r}</span></> })),
        ]}
      />
      <RadioGroup
        label={t('FormFields.imageSize')}
        className="segmented"
        value={size}
        onChange={setImageSize}
        options={[{ value: null, content: t('FormFields.default') }, ...IMAGE_SIZES.map((s) => ({ value: s, content: s }))]}
      />
      {/* What each choice means in pixels: "Default" alone did not say how large the results are. */}
      <p className="field-hint">{sizeHint()}</p>
    </fieldset>
  );
}
