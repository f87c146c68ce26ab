import { useEffect, useId, useState } from 'react';
import type { ExportRequest } from '../../../shared/engine/export-request';
import { OUTPUT_FORMATS, type OutputFormat } from '../../../shared/engine/model';
import { Dialog } from '../../components/Dialog';
import { useActions, useApp } from '../../store/context';
import { PathInput } from '../workflows/PathInput';
import { useFormat, useT } from '../../i18n';

/** Format names are the same in every language; only "as the original" is words. */
const FORMAT_NAMES: Record<Exclude<OutputFormat, 'source'>, string> = { jpeg: 'JPEG', png: 'PNG', tiff: 'TIFF', webp: 'WebP' };

/**
 * "Export again without paying": the batch's paid results made into other files — a format and size, or a saved
 * recipe's deliverables — as a new batch that sends nothing to the service (0 credits).
 */
export function ExportDialog({ batchId, saved, onClose }: { batchId: string; saved: number; onClose: () => void }) {
  const recipes = useApp((s) => s.recipes);
  const { exportAgain, loadRecipes } = useActions();
  const t = useT('review');
  const fmt = useFormat();
  const [folder, setFolder] = useState('');
  const [format, setFormat] = useState<OutputFormat>('jpeg');
  const [longEdge, setLongEdge] = useState('');
  const [recipeName, setRecipeName] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = { format: useId(), edge: useId(), recipe: useId() };
  useEffect(() => {
    void loadRecipes();
  }, [loadRecipes]);
  const recipe = recipes.find((r) => r.name === recipeName) ?? null;
  const edge = longEdge.trim() === '' ? null : Number(longEdge);
  // A recipe brings its own sizes: the long edge typed before it was chosen no longer counts.
  const edgeProblem = !recipe && edge !== null && (!Number.isInteger(edge) || edge < 16 || edge > 65_535) ? t('ExportDialog.edgeProblem', { min: 16, max: 65_535 }) : null;

  const submit = async () => {
    if (!folder || edgeProblem) return;
    const [first, ...rest] = recipe?.deliverables ?? [];
    const request: ExportRequest = {
      from: { batchId },
      output: first ? { ...first, outputFolder: folder } : { outputFolder: folder, format, ...(edge ? { size: { fit: 'long-edge', longEdge: edge } } : {}) },
      deliverables: rest,
    };
    setBusy(true);
    const done = await exportAgain(request);
    setBusy(false);
    if (done) onClose();
  };

  return (
    <Dialog
      title={t('ExportDialog.title', { count: saved })}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>{t('cancel')}</button>
          <button type="button" className="btn btn-primary" disabled={!folder || edgeProblem !== null || busy} onClick={() => void submit()}>{t('ExportDialog.export', { credits: fmt.credits(0) })}</button>
        </>
      }
    >
      <p className="muted">{t('ExportDialog.intro')}</p>
      <PathInput label={t('ExportDialog.folder')} folder multiple={false} onPaths={([path]) => setFolder(path ?? '')} />
      {folder && <p className="mono" aria-label={t('ExportDialog.folderShown')}>{folder}</p>}
      <label htmlFor={ids.recipe}>{t('ExportDialog.recipe')}</label>
      <select id={ids.recipe} value={recipeName} onChange={(e) => setRecipeName(e.target.value)}>
        <option value="">{t('ExportDialog.noRecipe')}</option>
        {recipes.map((r) => <option key={r.name} value={r.name}>{t('ExportDialog.recipeOption', { name: r.name, count: r.deliverables.length })}</option>)}
      </select>
      {!recipe && (
        <>
          <label htmlFor={ids.format}>{t('ExportDialog.format')}</label>
          <select id={ids.format} value={format} onChange={(e) => setFormat(e.target.value as OutputFormat)}>
            {OUTPUT_FORMATS.map((f) => <option key={f} value={f}>{f === 'source' ? t('ExportDialog.sameAsOriginal') : FORMAT_NAMES[f]}</option>)}
          </select>
          <label htmlFor={ids.edge}>{t('ExportDialog.longEdge')}</label>
          <input id={ids.edge} inputMode="numeric" value={longEdge} onChange={(e) => setLongEdge(e.target.value)} aria-invalid={edgeProblem !== null} />
          {edgeProblem && <p className="field-error" role="alert">{t('ExportDialog.longEdgeProblem', { problem: edgeProblem })}</p>}
        </>
      )}
    </Dialog>
  );
}
