import type { Command } from 'commander';
import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { HotFolderActivity, HotFolderConfigInput, HotFolderState } from '../../../shared/hotfolders/model';
import { describeSkip } from '../../../shared/engine/skip-text';
import { describeDeliverables } from '../../../shared/engine/deliverables';
import { getWorkflowOrUsage } from '../workflow-lookup';
import type { Core } from '../../core/app/types';
import type { HotFolderManager } from '../../core/watch';
import { UsageError } from '../errors';
import { EXIT } from '../exit-codes';
import { collect } from '../flags';
import type { RunFlags } from '../run-spec';
import { withSession, type CliSession, type Output } from '../session';
import { credits, fit, lineWidth } from '../format';
import { creditKindOf } from '../../../shared/service/credit-kind';

interface WatchFlags extends Omit<RunFlags, 'mapping' | 'workflow'> {
  workflow?: string;
  all?: boolean;
  existing: string;
  moveOriginals?: boolean;
  polling?: boolean;
  ledgerUrl?: string;
  studioFolder?: string;
}

export function registerWatchCommand(program: Command): void {
  program
    .command('watch')
    .description('watch a folder and send every new photo through a workflow, until Ctrl-C (or --all: the hot folders in settings)')
    .argument('[dir]', 'the folder to watch')
    .option('--all', 'run the hot folders configured in settings (the app\'s list) instead of one folder')
    .option('--workflow <id>', 'workflow id (see `batchroom workflows`)')
    .option('--recipe <name|file>', 'process with a saved recipe or a .batchroom-recipe.json file; flags given beside it replace its values')
    .option('--out <dir>', 'output folder (default: the one in settings); may be inside the watched folder')
    .option('--recursive', 'watch subfolders too (mirrored in the output)')
    .option('--existing <policy>', 'photos already in the folder and not yet processed: process, skip or dry-run', 'process')
    .option('--move-originals', 'move originals into Done/ and Failed/ subfolders once processed')
    .option('--budget <credits>', 'stop submitting once this many credits are spent')
    .option('--polling', 'poll instead of native file events (network shares)')
    .option('--ledger-url <url>', 'studio mode: claim each photo in this shared PostgreSQL ledger, postgres://user@host/db (password from PGPASSWORD, ~/.pgpass or the keychain)')
    .option('--studio-folder <name>', 'studio mode: the folder\'s name in the ledger, the same on every machine (default: the folder\'s own name)')
    .option('--text <field=value>', 'a text field value (repeatable)', collect, [])
    .option('--switch <field=a,b>', 'switch options to turn on (repeatable)', collect, [])
    .option('--aspect <ratio>', 'output aspect ratio, e.g. 16:9')
    .option('--size <size>', 'output size: 1K or 2K')
    .option('--image-field <field>', 'the image field photos are sent as')
    .option('--naming <template>', 'output names, e.g. "{name}_{workflow}{ext}"')
    .option('--on-collision <policy>', 'when a result name exists: suffix, skip or overwrite')
    .option('--format <format>', 'result file format: source (default: the original\'s; HEIC, AVIF and RAW become JPEG), jpeg, png, tiff or webp')
    .option('--quality <1-100>', 'JPEG and WebP quality (default 92)')
    .option('--colour <policy>', 'result colour space: srgb (default) or source (back into the original\'s Display P3, Adobe RGB or ProPhoto)')
    .option('--metadata <policy>', 'what results keep of the originals\' metadata: keep (default), strip-gps or strip')
    .option('--sidecar <kind>', 'a provenance file next to each result: none (default), json or xmp')
    .option('-y, --yes', 'with --recipe: send at a price per photo that changed since the recipe was saved (else exit 4)')
    .option('--raw-pairs <half>', 'a RAW and a JPEG of the same name are one photo, edited from: jpeg (default), raw (its embedded preview) or both')
    .option('--job <name>', 'the job the folder\'s batches are for (`batchroom report --by job`)')
    .option('--client <name>', 'the client the folder\'s batches are for (`batchroom report --by client`)')
    .option('--priority <n>', 'queue priority -100…100 of the folder\'s batches (default 0): higher is sent before other batches waiting')
    .action(async (dir: string | undefined, flags: WatchFlags, command: Command) => {
      if (flags.all && dir) throw new UsageError('Give either a folder or --all, not both.');
      if (flags.all && flags.recipe) throw new UsageError('--recipe runs one folder: name it (the hot folders in settings keep their own settings).');
      if (!flags.all && !dir) throw new UsageError('Name the folder to watch, or --all for the hot folders in settings.', 'For example: batchroom watch ~/Inbox --workflow <id> --out ~/Results');
      if (!flags.all && !flags.workflow && !flags.recipe) throw new UsageError('--workflow is required when watching a folder.', '`batchroom workflows` lists them.');
      const { ExistingFilesPolicySchema } = await import('../../../shared/hotfolders/model'); // zod: not for --help
      const existing = ExistingFilesPolicySchema.safeParse(flags.existing);
      if (!existing.success) throw new UsageError(`--existing must be process, skip or dry-run (got "${flags.existing}").`);
      if (flags.ledgerUrl !== undefined && !flags.ledgerUrl.trim()) throw new UsageError('--ledger-url is empty.');
      if (flags.studioFolder !== undefined && !flags.studioFolder.trim()) throw new UsageError('--studio-folder is empty.');
      await withSession(command, (session) => runWatch(session, dir, flags, existing.data), {
        startHotFolders: flags.all === true, ...(flags.ledgerUrl ? { ledgerUrl: flags.ledgerUrl.trim() } : {}),
      });
    });
}


function managerOf(core: Core): HotFolderManager {
  const manager = (core as Core & { hotFolders?: HotFolderManager }).hotFolders;
  if (!manager) throw new Error('hot folders are not available in this build (the core exposes no hot-folder manager)');
  return manager;
}

async function runWatch(session: CliSession, dir: string | undefined, flags: WatchFlags, existing: HotFolderConfigInput['existingFiles']): Promise<number> {
  const { out, core } = session;
  const manager = managerOf(core);
  const interrupt = (await import('../batch-tracker')).interruptSignal();
  const print = createPrinter(out);
  // Photos this run found new: the count of those already done must not include them (in flight, they read as done).
  const detected = new Set<string>();
  const unsubscribe = core.onEvent((channel, payload) => {
    if (channel === 'hotFolders:activity') {
      const activity = payload as HotFolderActivity;
      if (activity.kind === 'detected') detected.add(activity.path);
      print.activity(activity);
    } else if (channel === 'hotFolders:changed') print.states(payload as HotFolderState[]);
  });
  try {
    if (dir) {
      const config = await folderConfigFromFlags(session, dir, flags, existing);
      const state = await manager.save(config, { persist: false });
      print.states([state]);
      if (state.status.state === 'awaiting-review') print.dryRun(await manager.dryRun(config.id));
    } else if (manager.list().length === 0) {
      throw new UsageError('No hot folders are configured in settings.', 'Add one in the app, or watch one folder: batchroom watch <dir> --workflow <id> --out <dir>.');
    }
    const folders = manager.list();
    if (out.json) out.record({ type: 'watching', folders });
    else {
      for (const f of folders) {
        const studio = f.status.studio === 'off' ? '' : `, studio folder "${f.config.studioFolder ?? basename(f.config.path)}"${f.status.studio === 'unreachable' ? ' (ledger unreachable: claiming paused)' : ''}`;
        out.line(fit(`Watching ${f.config.path} → ${f.config.outputFolder} (${f.config.workflowId}), ${f.status.state}${studio}. Ctrl-C stops.`, lineWidth(), '  '));
      }
    }
    // Said once the folders are armed, without holding up new photos: a restart reads "3 photos already done here".
    const counted = sayAlreadyDone(manager, folders, detected, print, interrupt.signal);
    await new Promise<void>((done) => interrupt.signal.addEventListener('abort', () => done(), { once: true }));
    out.notice('batchroom: stopping (results already submitted are saved on the next run if not finished now)…');
    await counted;
    const final = manager.list();
    if (dir) await manager.remove(final[0]!.config.id);
    const totals = final.reduce((t, f) => ({
      processed: t.processed + f.status.processed, failed: t.failed + f.status.failed,
      queued: t.queued + f.status.queued, creditsSpent: t.creditsSpent + f.status.creditsSpent,
    }), { processed: 0, failed: 0, queued: 0, creditsSpent: 0 });
    if (out.json) out.record({ type: 'summary', ...totals });
    else out.result(fit(`Processed ${totals.processed}, failed ${totals.failed}, still queued ${totals.queued}; ${credits(totals.creditsSpent, creditKindOf(session.status))} used.`, lineWidth(), '  '));
    return EXIT.ok;
  } finally {
    unsubscribe();
    interrupt.dispose();
  }
}

/** The one-folder config: parameters checked against the workflow exactly as `batchroom run` checks them. */
async function folderConfigFromFlags(session: CliSession, dir: string, flags: WatchFlags, existing: HotFolderConfigInput['existingFiles']): Promise<HotFolderConfigInput> {
  const path = resolve(dir);
  const runFlags = { ...flags, workflow: flags.workflow ?? '', mapping: [] };
  const { spec, workflow, ref, acceptedCost } = flags.recipe
    ? await (await import('../recipe-watch')).recipeWatchSpec(session, flags.recipe, runFlags, path)
    : { ...(await plainSpec(session, runFlags, path)), ref: null, acceptedCost: null };
  const budget = flags.budget === undefined ? null : Number(flags.budget);
  if (budget !== null && !(Number.isFinite(budget) && budget >= 0)) throw new UsageError(`--budget must be a number of credits (got "${flags.budget}").`);
  // A stable id per folder + workflow: a later run finds the same baseline of skipped files.
  const id = `cli-${createHash('sha256').update(`${path}\n${workflow.id}`).digest('hex').slice(0, 12)}`;
  return {
    id,
    path,
    recursive: flags.recursive === true,
    workflowId: workflow.id,
    parameters: spec.parameters ?? {},
    ...(spec.inputs.imageField ? { imageField: spec.inputs.imageField } : {}),
    ...(spec.inputs.rawPairs ? { rawPairs: spec.inputs.rawPairs } : {}),
    outputFolder: requireOutput(spec.output.outputFolder),
    ...(spec.output.namingTemplate ? { namingTemplate: spec.output.namingTemplate } : {}),
    ...(spec.output.collisionPolicy ? { collisionPolicy: spec.output.collisionPolicy } : {}),
    ...(spec.output.metadata ? { metadataPolicy: spec.output.metadata } : {}),
    ...(spec.output.format ? { outputFormat: spec.output.format } : {}),
    ...(spec.output.quality ? { jpegQuality: spec.output.quality } : {}),
    ...(spec.output.colour ? { colourPolicy: spec.output.colour } : {}),
    ...(spec.output.sidecar ? { sidecar: spec.output.sidecar } : {}),
    moveOriginals: flags.moveOriginals === true,
    budget,
    enabled: true,
    existingFiles: existing,
    polling: flags.polling === true,
    studioFolder: flags.studioFolder?.trim() || null,
    job: spec.job ?? null,
    client: spec.client ?? null,
    priority: spec.priority ?? 0,
    // The folder's batches are made from the recipe (its deliverables, fingerprint), checked before each one.
    recipe: ref,
    recipeAcceptedCost: acceptedCost,
  };
}

async function plainSpec(session: CliSession, flags: RunFlags, path: string) {
  const [workflow, { settings }, { buildRunSpec }] = await Promise.all([getWorkflowOrUsage(session.call, flags.workflow), session.call('settings:get', {}), import('../run-spec')]);
  return { spec: buildRunSpec(flags, [path], workflow, settings), workflow };
}

/**
 * How many photos of each armed folder are already done (saved, or settled, with these settings): looked up once
 * the folder's first scan is over, leaving out what this run found new. Errors are not the user's business here.
 */
async function sayAlreadyDone(manager: HotFolderManager, folders: HotFolderState[], detected: ReadonlySet<string>, print: Printer, signal: AbortSignal): Promise<void> {
  for (const folder of folders) {
    if (signal.aborted || folder.status.state !== 'armed') continue;
    const report = await manager.dryRun(folder.config.id).catch(() => null);
    if (!report || signal.aborted) continue;
    print.alreadyDone(folder, report.alreadyDone.filter((f) => !detected.has(f.path)).length);
  }
}

type Printer = ReturnType<typeof createPrinter>;

function createPrinter(out: Output) {
  const lastState = new Map<string, string>();
  const time = (iso: string) => iso.slice(11, 19);
  const say = (text: string, indent = '  ') => out.line(fit(text, lineWidth(), indent));
  return {
    activity(a: HotFolderActivity) {
      if (out.json) out.record({ type: 'activity', ...a });
      else say(`${time(a.at)}  ${a.kind.padEnd(11)} ${a.path}${a.message ? `  ${a.message}` : ''}`, ' '.repeat(22));
    },
    alreadyDone({ config }: HotFolderState, count: number) {
      if (out.json) return out.record({ type: 'alreadyDone', folderId: config.id, path: config.path, count });
      if (count === 0) return;
      say(`${config.path}: ${count === 1 ? '1 photo is' : `${count} photos are`} already done or under way (results in ${config.outputFolder}): not sent again.`);
    },
    states(states: HotFolderState[]) {
      for (const { config, status } of states) {
        const key = `${status.state}|${status.reason ?? ''}`;
        if (lastState.get(config.id) === key) continue;
        lastState.set(config.id, key);
        if (out.json) out.record({ type: 'folder', id: config.id, path: config.path, state: status.state, reason: status.reason });
        else if (status.state !== 'scanning') say(`${config.path}: ${status.state}${status.reason ? ` — ${status.reason}` : ''}`);
      }
    },
    dryRun(report: Awaited<ReturnType<HotFolderManager['dryRun']>>) {
      if (out.json) return out.record({ type: 'dryRun', ...report });
      say(`Already in the folder: ${report.toProcess.length} to process, ${report.colliding.length} colliding in the output, ` +
        `${report.alreadyDone.length} already done, ${report.unsupported.length} unsupported — ${report.totalCredits} credits.`);
      if (report.deliverables.length > 1) {
        say(`  Each photo becomes ${report.deliverables.length} files, paid once:`);
        for (const line of describeDeliverables(report.deliverables)) say(`    ${line}`, '      ');
      }
      for (const f of report.toProcess.slice(0, 10)) say(`  ${f.path} → ${(f.outputs ?? [f.output]).join(', ')}`, '    ');
      for (const s of report.unsupported.filter((u) => u.subfolders)) say(`  ${s.path}: ${describeSkip(s, 'cli')}`, '    ');
      say('They wait for review: run again with --existing process to include them. New photos are processed now.');
    },
  };
}

/** A hot folder needs a folder of its own for results: "next to the photos" would be inside the watched folder. */
function requireOutput(folder: string | undefined): string {
  if (!folder) throw new UsageError('No output folder: pass --out DIR (results of a watched folder go to a folder of their own).');
  return folder;
}
