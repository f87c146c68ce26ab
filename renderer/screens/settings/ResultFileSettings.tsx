import { COLOUR_POLICIES, OUTPUT_FORMATS, type ColourPolicy, type OutputFormat } from '../../../shared/engine/model';
import type { Settings, SettingsPatchInput } from '../../../shared/settings/schema';
import { COLOUR_LABELS, FORMAT_LABELS } from '../../lib/metadata-labels';
import { SettingText } from './SettingText';

/** The result file itself: its format, JPEG/WebP quality and colour space (docs/photo-pipeline.md). */
export function ResultFileSettings({ settings, save }: { settings: Settings; save: (patch: SettingsPatchInput) => Promise<boolean> }) {
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor="output-format">File format of results</label>
        <select id="output-format" className="input" value={settings.outputFormat} onChange={(e) => void save({ outputFormat: e.target.value as OutputFormat })}>
          {OUTPUT_FORMATS.map((f) => <option key={f} value={f}>{FORMAT_LABELS[f]}</option>)}
        </select>
      </div>
      <SettingText
        label="JPEG and WebP quality"
        type="number"
        value={String(settings.jpegQuality)}
        validate={(v) => (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100 ? null : 'Choose a whole number from 1 to 100.')}
        onSave={(v) => save({ jpegQuality: Number(v) })}
        hint="92 keeps detail a client will not miss; 100 is near lossless and much larger."
      />
      <div className="field">
        <label className="field-label" htmlFor="colour-policy">Colour space of results</label>
        <select id="colour-policy" className="input" value={settings.colourPolicy} onChange={(e) => void save({ colourPolicy: e.target.value as ColourPolicy })}>
          {COLOUR_POLICIES.map((c) => <option key={c} value={c}>{COLOUR_LABELS[c]}</option>)}
        </select>
      </div>
    </>
  );
}
