import { useId, useRef, useState } from 'react';
import { useT } from '../../i18n';
import { pathsFromFiles } from '../../lib/drop';
import { unwrap } from '../../lib/errors';
import { useActions, useApp, useBridge } from '../../store/context';

/**
 * How paths get in without a drop: a typed path (a plain browser has no native picker), the native picker in
 * Electron, or the browser's file chooser whose files the host stages.
 */
export function PathInput({ label, onPaths, multiple = true, folder = false }: {
  label: string;
  onPaths: (paths: string[]) => void;
  multiple?: boolean;
  folder?: boolean;
}) {
  const t = useT('workflows');
  const [text, setText] = useState('');
  const isElectron = useApp((s) => s.appInfo?.host === 'electron');
  const bridge = useBridge();
  const { notify } = useActions();
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  const submit = () => {
    const value = text.trim();
    if (!value) return;
    onPaths([value]);
    setText('');
  };

  const pick = async () => {
    if (!isElectron) {
      fileInput.current?.click();
      return;
    }
    try {
      if (folder) {
        const chosen = await unwrap(bridge.files.pickFolder({ title: label }));
        if (chosen) onPaths([chosen]);
      } else {
        const chosen = await unwrap(bridge.files.pickFiles({ title: label }));
        if (chosen.length > 0) onPaths(multiple ? chosen : chosen.slice(0, 1));
      }
    } catch {
      notify('info', t('PathInput.noPicker'));
    }
  };

  const onChosen = async (files: FileList | null) => {
    const result = await pathsFromFiles([...(files ?? [])]);
    if ('error' in result) notify('warning', result.error);
    else if (result.paths.length > 0) onPaths(result.paths);
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <div className="path-input">
      <label htmlFor={id} className="visually-hidden">{label}</label>
      <input
        id={id}
        className="input input-mono"
        placeholder={folder ? t('PathInput.folderPlaceholder') : t('PathInput.photoPlaceholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), submit())}
      />
      <button type="button" className="btn" onClick={submit} disabled={!text.trim()}>{t('PathInput.add')}</button>
      {(isElectron || !folder) && (
        <button type="button" className="btn" onClick={() => void pick()}>{folder ? t('PathInput.chooseFolder') : t('PathInput.choose')}</button>
      )}
      {!isElectron && !folder && (
        <input
          ref={fileInput}
          type="file"
          accept="image/*"
          multiple={multiple}
          className="visually-hidden"
          aria-label={t('PathInput.chooseFiles', { label })}
          tabIndex={-1}
          onChange={(e) => void onChosen(e.target.files)}
        />
      )}
    </div>
  );
}
