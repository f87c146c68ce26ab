import { useId } from 'react';
import { WATERMARK_POSITIONS, type WatermarkPosition } from '../../../shared/engine/deliverable-options';
import { COLOUR_POLICIES, METADATA_POLICIES, OUTPUT_FORMATS, SIDECAR_KINDS } from '../../../shared/engine/output-options';
import type { DeliverableDraft } from '../../../shared/ipc/channels/recipes';
import { SelectField } from '../../components/SelectField';
import { COLOUR_LABELS, FORMAT_LABELS, METADATA_LABELS, SIDECAR_LABELS } from '../../lib/metadata-labels';
import { catalogLabels } from '../../i18n/labels';
import { useT } from '../../i18n';

const FITS = ['original', 'long-edge', 'contain', 'cover'] as const;
type Fit = (typeof FITS)[number];
const FIT_LABELS = catalogLabels('recipes', {
  original: 'Fit.original', 'long-edge': 'Fit.longEdge', contain: 'Fit.contain', cover: 'Fit.cover',
}) satisfies Record<Fit, string>;
const POSITION_LABELS = catalogLabels('recipes', {
  'top-left': 'Position.topLeft', top: 'Position.top', 'top-right': 'Position.topRight', left: 'Position.left', centre: 'Position.centre', right: 'Position.right',
  'bottom-left': 'Position.bottomLeft', bottom: 'Position.bottom', 'bottom-right': 'Position.bottomRight',
}) satisfies Record<WatermarkPosition, string>;

/** A number typed in a field: NaN while it is not one yet (main names the field if it is saved like that). */
const num = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

function NumberField({ label, value, onChange, step }: { label: string; value: number | undefined; onChange: (n: number) => void; step?: number }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <input id={id} className="input" type="number" step={step} value={value === undefined || Number.isNaN(value) ? '' : value} onChange={(e) => onChange(num(e.target.value))} />
    </div>
  );
}

function TextField({ label, value, onChange, hint }: { label: string; value: string; onChange: (v: string) => void; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <input id={id} className="input input-mono" value={value} onChange={(e) => onChange(e.target.value)} />
      {hint && <p className="field-hint">{hint}</p>}
    </div>
  );
}

/** One deliverable's options: folder, file names, format, quality, size, colour, metadata, sidecar, watermark. */
export function DeliverableFields({ value, onChange }: { value: DeliverableDraft; onChange: (d: DeliverableDraft) => void }) {
  const t = useT('recipes');
  const set = (patch: Partial<DeliverableDraft>) => onChange({ ...value, ...patch });
  const size = value.size ?? { fit: 'original' };
  const setFit = (fit: Fit) => set({
    size: fit === 'original' ? { fit } : fit === 'long-edge' ? { fit, longEdge: 2048 } : { fit, width: 1080, height: 1080 },
  });
  const watermark = value.watermark;
  return (
    <>
      <div className="field-pair">
        <TextField label={t('Fields.folder')} value={value.folder ?? ''} onChange={(folder) => set({ folder })} hint={t('Fields.folderHint')} />
        <TextField label={t('Fields.fileNames')} value={value.namingTemplate ?? ''} onChange={(namingTemplate) => set({ namingTemplate })} />
      </div>
      <div className="field-pair">
        <SelectField label={t('Fields.fileFormat')} value={value.format ?? 'source'} options={OUTPUT_FORMATS} labels={FORMAT_LABELS} onChange={(format) => set({ format })} />
        <NumberField label={t('Fields.quality')} value={value.quality} onChange={(quality) => set({ quality })} />
      </div>
      <div className="field-pair">
        <SelectField label={t('Fields.size')} value={size.fit} options={FITS} labels={FIT_LABELS} onChange={setFit} />
        {size.fit === 'long-edge' && <NumberField label={t('Fields.longEdge')} value={size.longEdge} onChange={(longEdge) => set({ size: { ...size, longEdge } })} />}
        {(size.fit === 'contain' || size.fit === 'cover') && (
          <>
            <NumberField label={t('Fields.width')} value={size.width} onChange={(width) => set({ size: { ...size, width } })} />
            <NumberField label={t('Fields.height')} value={size.height} onChange={(height) => set({ size: { ...size, height } })} />
          </>
        )}
      </div>
      <div className="field-pair">
        <SelectField label={t('Fields.colour')} value={value.colour ?? 'srgb'} options={COLOUR_POLICIES} labels={COLOUR_LABELS} onChange={(colour) => set({ colour })} />
        <SelectField label={t('Fields.metadata')} value={value.metadata ?? 'keep'} options={METADATA_POLICIES} labels={METADATA_LABELS} onChange={(metadata) => set({ metadata })} />
        <SelectField label={t('Fields.sidecar')} value={value.sidecar ?? 'none'} options={SIDECAR_KINDS} labels={SIDECAR_LABELS} onChange={(sidecar) => set({ sidecar })} />
      </div>
      {watermark ? (
        <fieldset className="field">
          <legend className="field-label">{t('Fields.watermark')}</legend>
          <TextField label={t('Fields.watermarkImage')} value={watermark.path} onChange={(path) => set({ watermark: { ...watermark, path } })} hint={t('Fields.watermarkHint')} />
          <div className="field-pair">
            <SelectField label={t('Fields.position')} value={watermark.position ?? 'bottom-right'} options={WATERMARK_POSITIONS} labels={POSITION_LABELS} onChange={(position) => set({ watermark: { ...watermark, position } })} />
            <NumberField label={t('Fields.scale')} step={0.05} value={watermark.scale} onChange={(scale) => set({ watermark: { ...watermark, scale } })} />
            <NumberField label={t('Fields.opacity')} step={0.05} value={watermark.opacity} onChange={(opacity) => set({ watermark: { ...watermark, opacity } })} />
          </div>
          <button type="button" className="btn" onClick={() => set({ watermark: undefined })}>{t('Fields.removeWatermark')}</button>
        </fieldset>
      ) : (
        <button type="button" className="btn" onClick={() => set({ watermark: { path: '', position: 'bottom-right', scale: 0.2, opacity: 0.6 } })}>{t('Fields.addWatermark')}</button>
      )}
    </>
  );
}
