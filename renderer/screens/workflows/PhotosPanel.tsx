import { useId } from 'react';
import { SelectField } from '../../components/SelectField';
import {
  COLLISION_POLICIES, DEFAULT_OUTPUT_FOLDER_NAME, METADATA_POLICIES, OUTPUT_FORMATS, type CollisionPolicy,
} from '../../../shared/engine/model';
import { FolderPickButton } from '../../components/FolderPickButton';
import { JobClientFields } from '../../components/JobClientFields';
import { useActions, useApp } from '../../store/context';
import { PathInput } from './PathInput';
import { FORMAT_LABELS, METADATA_LABELS } from '../../lib/metadata-labels';
import { baseName } from '../../lib/format';
import { PATH_PROBLEMS } from '../../lib/path-kinds';
import type { PathKind } from '../../../shared/ipc/channels/files';

const SHOWN_PATHS = 50;

export const COLLISION_LABELS: Record<CollisionPolicy, string> = {
  suffix: 'Keep both (add a number)',
  skip: 'Skip the photo',
  overwrite: 'Replace the existing file',
};

// The engine's own default (main/core/engine/output-folder.ts) and the CLI's: one name, from shared/.
const NEXT_TO_PHOTOS = `${DEFAULT_OUTPUT_FOLDER_NAME} folder next to the photos`;

/** A file the browser host staged from a drop (`…/uploads/<random>/NAME`): its folder means nothing to the user. */
const isStagedUpload = (path: string) => /[\\/]uploads[\\/][0-9a-f]{8,}[\\/][^\\/]+$/i.test(path);
const parentOf = (path: string) => path.slice(0, Math.max(0, path.length - baseName(path).length)).replace(/[\\/]$/, '') || '/';

/** A path's kind beside it: a folder says so, a path that cannot be used says why (at once, not at the summary). */
function PathMark({ kind }: { kind: PathKind | undefined }) {
  const problem = kind ? PATH_PROBLEMS[kind] : undefined;
  if (problem) return <span className="path-mark path-mark-bad">{problem}</span>;
  return kind === 'folder' ? <span className="path-mark muted">folder</span> : null;
}

export function PhotosPanel() {
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
    <section className="panel" aria-label="Photos and output">
      <h3 className="panel-title">Photos</h3>
      {draft.paths.length === 0 ? (
        <p className="muted">Drop photos or whole folders anywhere on this window, choose them, or type a path.</p>
      ) : (
        <ul className="path-list" aria-label="Photos to process">
          {shown.map((p) => (
            <li key={p} className={pathKinds[p] && PATH_PROBLEMS[pathKinds[p]] ? 'path-bad' : undefined}>
              <span className="mono path-text" title={p}>
                {baseName(p)}
                {!isStagedUpload(p) && <span className="muted path-dir"> {parentOf(p)}</span>}
              </span>
              <PathMark kind={pathKinds[p]} />
              <button type="button" className="btn btn-icon" aria-label={`Remove ${p}`} onClick={() => removePath(p)}>✕</button>
            </li>
          ))}
          {draft.paths.length > SHOWN_PATHS && <li className="muted">…and {draft.paths.length - SHOWN_PATHS} more</li>}
        </ul>
      )}
      <div data-field="paths"><PathInput label="Add photos by path" onPaths={addPaths} /></div>
      <div className="row">
        <label className="inline-check">
          <input type="checkbox" checked={draft.recursive} onChange={(e) => setDraft({ recursive: e.target.checked })} />
          Include photos in subfolders
        </label>
        {draft.paths.length > 0 && <button type="button" className="btn btn-link" onClick={clearPaths}>Clear all</button>}
      </div>

      <h3 className="panel-title">Output</h3>
      <div className="field" data-field="output">
        <label htmlFor={outId} className="field-label">Output folder</label>
        <div className="path-input">
          <input
            id={outId}
            className="input input-mono"
            aria-describedby={outputError ? `${outId}-error` : `${outId}-hint`}
            aria-invalid={outputError ? true : undefined}
            placeholder={NEXT_TO_PHOTOS}
            value={draft.outputFolder ?? settings?.outputFolder ?? ''}
            onChange={(e) => setDraft({ outputFolder: e.target.value || null })}
          />
          <FolderPickButton title="Choose the output folder" onPick={(outputFolder) => setDraft({ outputFolder })} />
        </div>
        <p id={`${outId}-hint`} className="field-hint">
          {draft.outputFolder ?? settings?.outputFolder
            ? 'Results are saved in this folder.'
            : `Empty: results go to a “${DEFAULT_OUTPUT_FOLDER_NAME}” folder next to the photos. Settings → Output chooses one fixed folder instead.`}
        </p>
        {outputError && <p id={`${outId}-error`} className="field-error" role="alert">{outputError}</p>}
      </div>
      <div className="field-pair">
        <div className="field">
          <label htmlFor={namingId} className="field-label">File names</label>
          <input
            id={namingId}
            className="input input-mono"
            value={draft.namingTemplate ?? settings?.namingTemplate ?? ''}
            onChange={(e) => setDraft({ namingTemplate: e.target.value || null })}
          />
        </div>
        <SelectField
          label="If a file exists" id={collisionId} value={draft.collisionPolicy ?? settings?.collisionPolicy ?? 'suffix'} options={COLLISION_POLICIES} labels={COLLISION_LABELS}
          onChange={(v) => setDraft({ collisionPolicy: v })}
        />
      </div>
      <SelectField
        label="File format" id={formatId} value={draft.outputFormat ?? settings?.outputFormat ?? 'source'} options={OUTPUT_FORMATS} labels={FORMAT_LABELS}
        onChange={(v) => setDraft({ outputFormat: v })}
      />
      <SelectField
        label="Photo metadata" id={metadataId} value={draft.metadataPolicy ?? settings?.metadataPolicy ?? 'keep'} options={METADATA_POLICIES} labels={METADATA_LABELS}
        onChange={(v) => setDraft({ metadataPolicy: v })}
      />
      {/* Who the batch is for: History adds credits up by them, and a deliverable folder may name them. */}
      <JobClientFields value={draft} onChange={setDraft} />
    </section>
  );
}
