import { useT } from '../i18n';
import { unwrap } from '../lib/errors';
import { useApp, useBridge } from '../store/context';

/** "Choose…" beside a folder field, in Electron only: a plain browser has no native folder picker. */
export function FolderPickButton({ title, onPick }: { title: string; onPick: (path: string) => void }) {
  const t = useT('components');
  const isElectron = useApp((s) => s.appInfo?.host === 'electron');
  const bridge = useBridge();
  if (!isElectron) return null;
  const pick = async () => {
    try {
      const chosen = await unwrap(bridge.files.pickFolder({ title }));
      if (chosen) onPick(chosen);
    } catch {
      // A refused or unsupported picker leaves the typed path as it is.
    }
  };
  return <button type="button" className="btn" aria-label={title} onClick={() => void pick()}>{t('FolderPickButton.choose')}</button>;
}
