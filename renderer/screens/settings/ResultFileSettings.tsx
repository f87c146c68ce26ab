import { COLOUR_POLICIES, OUTPUT_FORMATS } from '../../../shared/engine/model';
import { SelectField } from '../../components/SelectField';
import type { Settings, SettingsPatchInput } from '../../../shared/settings/schema';
import { COLOUR_LABELS, FORMAT_LABELS } from '../../lib/metadata-labels';
import { useT } from '../../i18n';
import { SettingText } from './SettingText';

/** The result file itself: its format, JPEG/WebP quality and colour space (docs/photo-pipeline.md). */
export function ResultFileSettings({ settings, save }: { settings: Settings; save: (patch: SettingsPatchInput) => Promise<boolean> }) {
  const t = useT('settings');
  return (
    <>
      <SelectField
        label={t('outputFormat')} id="output-format" value={settings.outputFormat} options={OUTPUT_FORMATS} labels={FORMAT_LABELS}
        onChange={(v) => void save({ outputFormat: v })}
      />
      <SettingText
        label={t('quality')}
        type="number"
        value={String(settings.jpegQuality)}
        validate={(v) => (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100 ? null : t('qualityProblem'))}
        onSave={(v) => save({ jpegQuality: Number(v) })}
        hint={t('qualityHint')}
      />
      <SelectField
        label={t('colour')} id="colour-policy" value={settings.colourPolicy} options={COLOUR_POLICIES} labels={COLOUR_LABELS}
        onChange={(v) => void save({ colourPolicy: v })}
      />
    </>
  );
}
