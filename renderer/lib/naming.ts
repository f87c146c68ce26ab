import { expectedExtension, planOutputNames } from '../../shared/naming';

export { templateProblems, NAMING_TOKENS } from '../../shared/naming';

/**
 * The live preview while a template is typed: the one namer (shared/naming) applied to sample files, so it shows
 * exactly what the engine writes, collision suffixes included (a template without {name} shows the `(2)`).
 */
export function previewNames(template: string, sources: readonly string[], context: { workflow: string; total?: number; now?: Date; format?: string }): string[] {
  const items = sources.map((sourcePath, i) => ({ key: String(i), sourcePath, relDir: '', index: i + 1, outputs: [{ ext: expectedExtension(sourcePath, context.format) }] }));
  const plan = planOutputNames(items, {
    template, workflow: context.workflow, total: context.total ?? sources.length, at: context.now ?? new Date(), policy: 'suffix',
  }, []);
  return plan.map((p) => p.outputs[0]!.fileName);
}
