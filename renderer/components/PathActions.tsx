import { useT } from '../i18n';
import { useApp } from '../store/context';

// What the host can do with a path on disk. The desktop app shows it in the file manager; the browser host cannot
// reach the user's file manager, so it offers what a browser can: copy the path, and download a result.

interface PathActionsProps {
  path: string;
  kind: 'file' | 'folder';
  /** A URL the browser host serves the file from (for a folder: its results as a zip): offered as a download. */
  downloadUrl?: string | undefined;
  downloadName?: string;
}

export function PathActions({ path, kind, downloadUrl, downloadName }: PathActionsProps) {
  const t = useT('components');
  const isElectron = useApp((s) => s.appInfo?.host === 'electron');
  const revealFile = useApp((s) => s.revealFile);
  const openFolder = useApp((s) => s.openFolder);
  const notify = useApp((s) => s.notify);
  if (isElectron) {
    return kind === 'file'
      ? <button type="button" className="btn" onClick={() => void revealFile(path)}>{t('PathActions.showInFolder')}</button>
      : <button type="button" className="btn" onClick={() => void openFolder(path)}>{t('PathActions.openOutputFolder')}</button>;
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(path);
      notify('info', t('PathActions.copied', { path }));
    } catch {
      notify('warning', t('PathActions.copyFailed', { path }));
    }
  };
  return (
    <>
      {downloadUrl && <a className="btn" href={downloadUrl} download={downloadName ?? ''}>{kind === 'file' ? t('PathActions.download') : t('PathActions.downloadAll')}</a>}
      <button type="button" className="btn" onClick={() => void copy()}>{kind === 'file' ? t('PathActions.copyPath') : t('PathActions.copyFolderPath')}</button>
    </>
  );
}
