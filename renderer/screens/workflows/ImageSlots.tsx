import { useState } from 'react';
import { currentHost } from '../../bridge/host';
import type { ImageField } from '../../../shared/service/model';
import { useT } from '../../i18n';
import { filesFromDrop, pathsFromFiles } from '../../lib/drop';
import { baseName } from '../../lib/format';
import { describeAdded } from '../../lib/path-kinds';
import { useActions, useApp, useAppStore } from '../../store/context';
import { PathInput } from './PathInput';

/**
 * One slot per image field. One field receives the batch (every dropped photo becomes an item); any other field
 * takes one fixed file used for every item, such as a backdrop.
 */
function ImageSlot({ field, isBatch, error, multiField }: { field: ImageField; isBatch: boolean; error?: string; multiField: boolean }) {
  const t = useT('workflows');
  const fixed = useApp((s) => s.form?.fixedImages[field.id] ?? null);
  const paths = useApp((s) => s.draft.paths);
  const pathKinds = useApp((s) => s.pathKinds);
  const count = paths.length;
  const store = useAppStore();
  const { setFixedImage, addPaths, setBatchField, notify } = useActions();
  const [over, setOver] = useState(false);

  const accept = (paths: string[]) => (isBatch ? addPaths(paths) : setFixedImage(field.id, paths[0] ?? null));

  const onDrop = async (e: React.DragEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setOver(false);
    const files = await filesFromDrop(e.dataTransfer, store.getState().draft.recursive, currentHost()?.readsFolders ?? false);
    const result = await pathsFromFiles(isBatch ? files : files.slice(0, 1));
    if ('error' in result) notify('warning', result.error);
    else accept(result.paths);
  };

  return (
    <div
      className={`image-slot${over ? ' is-over' : ''}${error ? ' has-error' : ''}`}
      role="group"
      aria-label={t('ImageSlots.image', { field: field.label })}
      data-field={`image:${field.id}`}
      onDragOver={(e) => { e.preventDefault(); setOver(true); }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => void onDrop(e)}
    >
      <div className="image-slot-head">
        <span className="field-label">{field.label}{field.required && <span className="required" aria-hidden="true"> *</span>}</span>
        {multiField && (
          <label className="inline-check">
            <input type="radio" name="batch-field" checked={isBatch} onChange={() => setBatchField(field.id)} />
            {t('ImageSlots.batchGoesHere')}
          </label>
        )}
      </div>
      {field.description && <p className="field-hint">{field.description}</p>}
      {isBatch ? (
        <p className="slot-body">{count === 0 ? t('ImageSlots.dropHere') : describeAdded(paths, pathKinds)}</p>
      ) : fixed ? (
        <div className="slot-body slot-fixed">
          <span className="mono" title={fixed}>{baseName(fixed)}</span>
          <button type="button" className="btn btn-small" onClick={() => setFixedImage(field.id, null)} aria-label={t('ImageSlots.removeImage', { field: field.label })}>{t('ImageSlots.remove')}</button>
        </div>
      ) : (
        <>
          <p className="slot-body">{t('ImageSlots.dropOne')}</p>
          <PathInput label={t('ImageSlots.pathFor', { field: field.label })} multiple={false} onPaths={accept} />
        </>
      )}
      {error && <p className="field-error" role="alert">{error}</p>}
    </div>
  );
}

export function ImageSlots({ fields, errors }: { fields: ImageField[]; errors: Record<string, string> }) {
  const batchField = useApp((s) => s.form?.batchField ?? null);
  return (
    <div className="image-slots">
      {fields.map((f) => (
        <ImageSlot key={f.id} field={f} isBatch={f.id === batchField} error={errors[`image:${f.id}`]} multiField={fields.length > 1} />
      ))}
    </div>
  );
}
