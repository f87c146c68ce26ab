import { useEffect, useId, useState } from 'react';
import { DEFAULT_OUTPUT_FOLDER_NAME } from '../../../shared/engine/model';
import { useT } from '../../i18n';
import { SettingText } from './SettingText';

/**
 * Where new batches save results: next to the originals (a `Batchroom` folder beside the photos, the default) or one
 * fixed folder. Stored as `outputFolder`: null means next to the originals.
 */
export function OutputLocation({ folder, onSave }: { folder: string | null; onSave: (folder: string | null) => Promise<boolean> }) {
  const t = useT('settings');
  const [fixed, setFixed] = useState(folder !== null);
  const name = useId();
  useEffect(() => setFixed(folder !== null), [folder]);
  return (
    <fieldset className="field radio-group">
      <legend className="field-label">{t('saveResults')}</legend>
      <label className="inline-check">
        <input
          type="radio"
          name={name}
          checked={!fixed}
          onChange={() => {
            setFixed(false);
            if (folder !== null) void onSave(null);
          }}
        />
        {t('nextToOriginals', { folder: DEFAULT_OUTPUT_FOLDER_NAME })}
      </label>
      <label className="inline-check">
        <input type="radio" name={name} checked={fixed} onChange={() => setFixed(true)} />
        {t('oneFixedFolder')}
      </label>
      {fixed && (
        <SettingText
          label={t('fixedFolder')}
          mono
          value={folder ?? ''}
          validate={(v) => (v.trim() === '' ? t('fixedFolderProblem') : null)}
          onSave={(v) => onSave(v.trim())}
          hint={t('fixedFolderHint')}
        />
      )}
    </fieldset>
  );
}
