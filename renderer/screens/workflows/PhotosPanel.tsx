import { useId } from 'react';
import { SelectField } from '../../components/SelectField';
import {
  COLLISION_POLICIES, DEFAULT_OUTPUT_FOLDER_NAME, METADATA_POLICIES, OUTPUT_FORMATS, type CollisionPolicy,
} from '../../../shared/engine/model';
import { FolderPickButton } from '../../components/FolderPickButton';
import { JobClientFields } from '../../components/JobClientFields';
import { catalogLabels, useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';
import { PathInput } from './PathInput';
import { FORMAT_LABELS, METADATA_LABELS } from '../../lib/metadata-labels';
import { baseName } from '../../lib/format';
import { PATH_PROBLEMS } from '../../lib/path-kinds';
import type { PathKind } from '../../../shared/ipc/channels/files';

const SHOWN_PATHS = 50;

export const COLLISION_LABELS: Readonly<Record<CollisionPolicy, string>> = catalogLabels('workflows', {
  suffix: 'PhotosPanel.collisionSuffix',
  skip: 'PhotosPanel.collisionSkip',
  overwrite: 'PhotosPanel.collisionOverwrite',
});

/** A file the browser host staged from a drop (`…/uploads/<random>/NAME`): its folder means nothing to the user. */
const isStagedUpload = (path: string) => /[\\/]uploads[\\/][0-9a-f]{8,}[\\/][^\\/]+$/i.test(path);
const parentOf = (path: string) => path.slice(0, Math.max(0, path.length - baseName(path).length)).replace(/[\\/]$/, '') || '/';

/** A path's kind beside it: a folder says so, a path that cannot be used says why (at once, not at the summary). */
function PathMark({ kind }: { kind: PathKind | undefined }) {
  const t = useT('workflows');
  const problem = kind ? PATH_PROBLEMS[kind] : undefined;
  if (problem) return <span className="path-mark path-mark-bad">{problem}</span>;
  return kind === 'folder' ? <span className="path-mark muted">{t('PhotosPanel.folder')}</span> : null;
}

export function PhotosPanel() {
  const t = useT('workflows');
  const draft = useApp((s) => s.draft);
  const pathKinds = useApp((s) => s.pathKinds);
  const settings = useApp((s) => s.settings);
  const outputError = useApp((s) => (s.draftError?.field === 'output.outputFolder' ? s.draftError.title : null));
  const { addPaths, removePath, clearPaths, setDraft } = useActions();
  const outId = useId();
  const namingId = useId();
  const collisionId = useId();
  const metadataId = useId();
  const formatId = useId();
  const shown = draft.paths.slice(0, SHOWN_PATHS);

  return (
    <section className="panel" aria-label={t('PhotosPanel.region')}>
      <h3 className="panel-title">{t('PhotosPanel.photos')}</h3>
      {draft.paths.length === 0 ? (
        <p className="muted">{t('PhotosPanel.empty')}</p>
      ) : (
        <ul className="path-list" aria-label={t('PhotosPanel.toProcess')}>
          {shown.map((p) => (
            <li key={p} className={pathKinds[p] && PATH_PROBLEMS[pathKinds[p]] ? 'path-bad' : undefined}>
              <span className="mono path-text" title={p}>
                {baseName(p)}
                {!isStagedUpload(p) && <span className="muted path-dir"> {parentOf(p)}</span>}
              </span>
              <PathMark kind={pathKinds[p]} />
              <button type="button" className="btn btn-icon" aria-label={t('PhotosPanel.removePath', { path: p })} onClick={() => removePath(p)}>✕</button>
            </li>
          ))}
          {draft.paths.length > SHOWN_PATHS && <li className="muted">{t('PhotosPanel.andMore', { count: draft.paths.length - SHOWN_PATHS })}</li>}
        </ul>
      )}
      <div data-field="paths"><PathInput label={t('PhotosPanel.addByPath')} onPaths={addPaths} /></div>
      <div className="row">
        <label className="inline-check">
          <input type="checkbox" checked={draft.recursive} onChange={(e) => setDraft({ recursive: e.target.checked })} />
          {t('PhotosPanel.subfolders')}
        </label>
        {draft.paths.length > 0 && <button type="button" className="btn btn-link" onClick={clearPaths}>{t('PhotosPanel.clearAll')}</button>}
      </div>

      <h3 className="panel-title">{t('PhotosPanel.output')}</h3>
      <div className="field" data-field="output">
        <label htmlFor={outId} className="field-label">{t('PhotosPanel.outputFolder')}</label>
        <div className="path-input">
          <input
            id={outId}
            className="input input-mono"
            aria-describedby={outputError ? `${outId}-error` : `${outId}-hint`}
            aria-invalid={outputError ? true : undefined}
            // The engine's own default (main/core/engine/output-folder.ts) and the CLI's: one name, from shared/.
            placeholder={t('PhotosPanel.nextToPhotos', { folder: DEFAULT_OUTPUT_FOLDER_NAME })}
            value={draft.outputFolder ?? settings?.outputFolder ?? ''}
            onChange={(e) => setDraft({ outputFolder: e.target.value || null })}
          />
          <FolderPickButton title={t('PhotosPanel.chooseOutput')} onPick={(outputFolder) => setDraft({ outputFolder })} />
        </div>
        <p id={`${outId}-hint`} className="field-hint">
          {draft.outputFolder ?? settings?.outputFolder
            ? t('PhotosPanel.savedHere')
            : t('PhotosPanel.savedNext', { folder: DEFAULT_OUTPUT_FOLDER_NAME })}
        </p>
        {outputError && <p id={`${outId}-error`} className="field-error" role="alert">{outputError}</p>}
      </div>
      <div className="field-pair">
        <div className="field">
          <label htmlFor={namingId} className="field-label">{t('PhotosPanel.fileNames')}</label>
          <input
            id={namingId}
            className="input input-mono"
            value={draft.namingTemplate ?? settings?.namingTemplate ?? ''}
            onChange={(e) => setDraft({ namingTemplate: e.target.value || null })}
          />
        </div>
        <SelectField
          label={t('PhotosPanel.ifExists')} id={collisionId} value={draft.collisionPolicy ?? settings?.collisionPolicy ?? 'suffix'} options={COLLISION_POLICIES} labels={COLLISION_LABELS}
          onChange={(v) => setDraft({ collisionPolicy: v })}
        />
      </div>
      <SelectField
        label={t('PhotosPanel.fileFormat')} id={formatId} value={draft.outputFormat ?? settings?.outputFormat ?? 'source'} options={OUTPUT_FORMATS} labels={FORMAT_LABELS}
        onChange={(v) => setDraft({ outputFormat: v })}
      />
      <SelectField
        label={t('PhotosPanel.metadata')} id={metadataId} value={draft.metadataPolicy ?? settings?.metadataPolicy ?? 'keep'} options={METADATA_POLICIES} labels={METADATA_LABELS}
        onChange={(v) => setDraft({ metadataPolicy: v })}
      />
      {/* Who the batch is for: History adds credits up by them, and a deliverable folder may name them. */}
      <JobClientFields value={draft} onChange={setDraft} />
    </section>
  );
}
