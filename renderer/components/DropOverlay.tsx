import { useEffect, useRef, useState } from 'react';
import { currentHost } from '../bridge/host';
import { tr, useT } from '../i18n';
import { filesFromDrop, pathsFromFiles } from '../lib/drop';
import { useAppStore } from '../store/context';

const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');

/**
 * Files and folders may be dropped anywhere on the window. On the Hot folders screen a dropped folder starts a
 * new hot folder; everywhere else drops add photos to the batch being prepared.
 */
export function DropOverlay() {
  const t = useT('components');
  const store = useAppStore();
  const [active, setActive] = useState(false);
  const depth = useRef(0);

  useEffect(() => {
    const onEnter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setActive(true);
    };
    const onOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setActive(false);
    };
    const onDrop = async (e: DragEvent) => {
      depth.current = 0;
      setActive(false);
      if (!e.dataTransfer || !hasFiles(e) || e.defaultPrevented) return;
      e.preventDefault();
      const s = store.getState();
      const readsFolders = currentHost()?.readsFolders ?? false;
      if (s.view === 'hotFolders' && !readsFolders) {
        // A browser can upload a folder's photos but not tell us where the folder is, and a copy cannot be watched.
        s.notify('info', tr('components', 'DropOverlay.browserHotFolder'));
        return;
      }
      const files = await filesFromDrop(e.dataTransfer, s.draft.recursive, readsFolders);
      const result = await pathsFromFiles(files);
      if ('error' in result) {
        s.notify('warning', result.error);
        return;
      }
      if (result.paths.length === 0) {
        s.notify('warning', tr('components', 'DropOverlay.noPhotos'));
        return;
      }
      if (s.view === 'hotFolders') {
        s.setPendingFolderPath(result.paths[0]!);
        return;
      }
      s.addPaths(result.paths);
      if (s.view !== 'workflows') s.setView('workflows');
      s.notify('info', tr('components', 'DropOverlay.added', { count: result.paths.length }));
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [store]);

  if (!active) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-card">
        <div className="drop-icon">⤓</div>
        <p>{t('DropOverlay.hint')}</p>
      </div>
    </div>
  );
}
