import { COLOUR_POLICIES, OUTPUT_FORMATS } from '../../../shared/engine/model';
import { SelectField } from '../../components/SelectField';
import type { Settings, SettingsPatchInput } from '../../../shared/settings/schema';
import { COLOUR_LABELS, FORMAT_LABELS } from '../../lib/metadata-labels';
import { SettingText } from './SettingText';

/** The result file itself: its format, JPEG/WebP quality and colour space (docs/photo-pipeline.md). */
export function ResultFileSettings({ settings, save }: { settings: Settings; save: (patch: SettingsPatchInput) => Promise<boolean> }) {
  return (
    <>
      <SelectField
        label="File format of results" id="output-format" value={settings.outputFormat} options={OUTPUT_FORMATS} labels={FORMAT_LABELS}
        onChange={(v) => void save({ outputFormat: v })}
      />
      <SettingText
        label="JPEG and WebP quality"
        type="number"
        value={String(settings.jpegQuality)}
        validate={(v) => (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100 ? null : 'Choose a whole number from 1 to 100.')}
        onSave={(v) => save({ jpegQuality: Number(v) })}
        hint="92 keeps detail a client will not miss; 100 is near lossless and much larger."
      />
      <SelectField
        label="Colour space of results" id="colour-policy" value={settings.colourPolicy} options={COLOUR_POLICIES} labels={COLOUR_LABELS}
        onChange={(v) => void save({ colourPolicy: v })}
      />
    </>
  );
}
