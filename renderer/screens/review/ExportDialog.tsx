import { useEffect, useId, useState } from 'react';
import type { ExportRequest } from '../../../shared/engine/export-request';
import { OUTPUT_FORMATS, type OutputFormat } from '../../../shared/engine/model';
import { Dialog } from '../../components/Dialog';
import { useActions, useApp } from '../../store/context';
import { PathInput } from '../workflows/PathInput';

const FORMAT_WORDS: Record<OutputFormat, string> = { source: 'Same as the original', jpeg: 'JPEG', png: 'PNG', tiff: 'TIFF', webp: 'WebP' };

/**
 * "Export again without paying": the batch's paid results made into other files — a format and size, or a saved
 * recipe's deliverables — as a new batch that sends nothing to the service (0 credits).
 */
export function ExportDialog({ batchId, saved, onClose }: { batchId: string; saved: number; onClose: () => void }) {
  const recipes = useApp((s) => s.recipes);
  const { exportAgain, loadRecipes } = useActions();
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
  const edgeProblem = !recipe && edge !== null && (!Number.isInteger(edge) || edge < 16 || edge > 65_535) ? 'a whole number of pixels, 16 to 65,535' : null;

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
      title={`Export ${saved} ${saved === 1 ? 'result' : 'results'} again`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="button" className="btn btn-primary" disabled={!folder || edgeProblem !== null || busy} onClick={() => void submit()}>Export · 0 credits</button>
        </>
      }
    >
      <p className="muted">New files from the results already paid for: nothing is sent to the service again. The files already saved stay as they are.</p>
      <PathInput label="Export into folder" folder multiple={false} onPaths={([path]) => setFolder(path ?? '')} />
      {folder && <p className="mono" aria-label="Export folder">{folder}</p>}
      <label htmlFor={ids.recipe}>Make a recipe's deliverables</label>
      <select id={ids.recipe} value={recipeName} onChange={(e) => setRecipeName(e.target.value)}>
        <option value="">No recipe: choose a format and size</option>
        {recipes.map((r) => <option key={r.name} value={r.name}>{r.name} ({r.deliverables.length} {r.deliverables.length === 1 ? 'file' : 'files'} per photo)</option>)}
      </select>
      {!recipe && (
        <>
          <label htmlFor={ids.format}>Format</label>
          <select id={ids.format} value={format} onChange={(e) => setFormat(e.target.value as OutputFormat)}>
            {OUTPUT_FORMATS.map((f) => <option key={f} value={f}>{FORMAT_WORDS[f]}</option>)}
          </select>
          <label htmlFor={ids.edge}>Long edge in pixels (empty: as paid for; never enlarged)</label>
          <input id={ids.edge} inputMode="numeric" value={longEdge} onChange={(e) => setLongEdge(e.target.value)} aria-invalid={edgeProblem !== null} />
          {edgeProblem && <p className="field-error" role="alert">Long edge: {edgeProblem}</p>}
        </>
      )}
    </Dialog>
  );
}
