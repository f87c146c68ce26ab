import { useEffect, useId, useState } from 'react';
import { DEFAULT_OUTPUT_FOLDER_NAME } from '../../../shared/engine/model';
import { SettingText } from './SettingText';

/**
 * Where new batches save results: next to the originals (a `Batchroom` folder beside the photos, the default) or one
 * fixed folder. Stored as `outputFolder`: null means next to the originals.
 */
export function OutputLocation({ folder, onSave }: { folder: string | null; onSave: (folder: string | null) => Promise<boolean> }) {
  const [fixed, setFixed] = useState(folder !== null);
  const name = useId();
  useEffect(() => setFixed(folder !== null), [folder]);
  return (
    <fieldset className="field radio-group">
      <legend className="field-label">Save results</legend>
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
        In a “{DEFAULT_OUTPUT_FOLDER_NAME}” folder next to the originals
      </label>
      <label className="inline-check">
        <input type="radio" name={name} checked={fixed} onChange={() => setFixed(true)} />
        In one fixed folder
      </label>
      {fixed && (
        <SettingText
          label="Fixed output folder"
          mono
          value={folder ?? ''}
          validate={(v) => (v.trim() === '' ? 'Enter a folder, or choose “next to the originals”.' : null)}
          onSave={(v) => onSave(v.trim())}
          hint="Used for new batches; each batch can still choose another."
        />
      )}
    </fieldset>
  );
}
