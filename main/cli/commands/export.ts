import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors';
import { EXIT } from '../exit-codes';
import { globalOptions, withSession } from '../session';

interface ExportFlags {
  since?: string;
  out?: string;
  recipe?: string;
  format?: string;
  quality?: string;
  longEdge?: string;
  naming?: string;
  colour?: string;
  metadata?: string;
  sidecar?: string;
  job?: string;
  client?: string;
}

/**
 * `export`: results already paid for, made into other files (format, size, folder, a recipe's deliverables) without
 * a new execution. Nothing is sent to the service but free reads of results it still has.
 */
export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .argument('[batch-id]', 'the batch whose results to export again (its id or first 8 characters; `batchroom report` and the app show them)')
    .option('--since <date>', 'instead of one batch: every result completed since this date (2026-11-01 or 2026-11-01T09:00)')
    .requiredOption('--out <dir>', 'the folder to write the new files into')
    .option('--recipe <name|file>', 'make the recipe\'s deliverables (its folders, names, formats, sizes, watermarks); its workflow and parameters are not used: nothing is run')
    .option('--format <format>', 'file format: source, jpeg, png, tiff or webp')
    .option('--quality <1-100>', 'JPEG and WebP quality')
    .option('--long-edge <px>', 'scale each result so its long edge is this many pixels (never enlarged)')
    .option('--naming <template>', 'file names, e.g. "{name}_web{ext}"')
    .option('--colour <policy>', 'srgb or source')
    .option('--metadata <policy>', 'keep, strip-gps or strip')
    .option('--sidecar <kind>', 'none, json or xmp')
    .option('--job <name>', 'the job the files are for (the folder token {job})')
    .option('--client <name>', 'the client the files are for (the folder token {client})')
    .description('make new files from results already paid for, without paying again')
    .action(async (batchId: string | undefined, flags: ExportFlags, command: Command) => {
      if (!batchId === !flags.since) throw new UsageError('name one batch, or --since DATE, not both and not neither.', 'For example: batchroom export 3f2a9c1e --out web/ --format webp');
      const recipe = flags.recipe ? await (await import('../recipe-run')).openRecipe(flags.recipe, globalOptions(command).stateDir) : null;
      return withSession(command, async (session) => {
        const { call, out } = session;
        const [first, ...rest] = recipe?.deliverables ?? [];
        const output = {
          ...(first ?? {}), outputFolder: resolve(flags.out!),
          ...(flags.format ? { format: flags.format } : {}), ...(flags.quality ? { quality: Number(flags.quality) } : {}),
          ...(flags.longEdge ? { size: { fit: 'long-edge', longEdge: Number(flags.longEdge) } } : {}),
          ...(flags.naming ? { namingTemplate: flags.naming } : {}), ...(flags.colour ? { colour: flags.colour } : {}),
          ...(flags.metadata ? { metadata: flags.metadata } : {}), ...(flags.sidecar ? { sidecar: flags.sidecar } : {}),
        };
        // Checked by the engine's own schema (the IPC contract): a bad value is refused with its field named.
        const made = await call('batches:export', {
          from: batchId ? { batchId } : { since: flags.since! }, output: output as never, deliverables: rest,
          ...(flags.job ? { job: flags.job } : {}), ...(flags.client ? { client: flags.client } : {}),
        });
        for (const miss of made.notExportable) {
          if (out.json) out.record({ type: 'notExportable', ...miss });
          else out.line(`not exported: ${miss.displayName}: ${miss.reason}`);
        }
        if (made.batches.length === 0) {
          out.result(batchId ? `Nothing to export: batch ${batchId} has no paid results.` : `Nothing to export: no paid results since ${flags.since}.`);
          return made.notExportable.length > 0 ? EXIT.failed : EXIT.ok;
        }
        for (const batch of made.batches) {
          if (out.json) out.record({ type: 'batch', ...batch });
          else out.line(`Exporting ${batch.total} paid result(s) of ${batch.workflowName} into ${batch.outputFolder}: 0 credits`);
        }
        const { followBatches } = await import('../follow');
        const code = await followBatches(session, made.batches);
        await (await import('../bell')).ringBellAtEnd(session);
        return code === EXIT.ok && made.notExportable.length > 0 ? EXIT.failed : code;
      });
    });
}
