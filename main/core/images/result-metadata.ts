import { mkdir, rename, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import type { ExifTool, ExifToolTask } from 'exiftool-vendored';
import type { MetadataPolicy } from '../../../shared/engine/model';
import { CaptureCache, type CaptureInfo, type ExifToolCommand } from './capture';
import { copyArgs, IPTC_UTF8, NO_LOCATION, STRIP_ALL } from './metadata-copy';

// What a result keeps of its original, written with ExifTool onto the verified temp file before it gets its final
// name (so a result is never seen without its metadata, and the original is only ever read). One ExifTool process
// (`-stay_open`), started on first use and ended with the engine. A metadata problem never costs the result: it is
// saved anyway and the item carries a warning.
//
// keep:      EXIF, IPTC, XMP, MakerNotes and GPS copied (`-tagsFromFile SRC -all:all -MakerNotes`), IPTC also as XMP
//            (formats without IIM), except what describes the source's own pixels — its ICC profile (the result's
//            pixels are sRGB), orientation (the result is upright), its thumbnail and preview images, its dimensions
//            (the result's real ones are written) — and RAW develop settings (XMP-crs…): see metadata-copy.ts;
// strip-gps: the same, then every location tag removed (ExifTool's family-2 group `Location`: GPS, city, country…,
//            and the whole GPS IFD and XMP-exif GPS* tags, which that group misses: GPSDateStamp, GPSDateTime…);
// strip:     nothing but the result's ICC profile and the original's DPI.
// Values are copied as stored (-n), IIM text as UTF-8 with its CodedCharacterSet marker.
// keep and strip-gps also record provenance in XMP: xmp:CreatorTool and a `batchroom` namespace (workflow, parameters,
// execution, credits, source name and SHA-256, and the recipe's name and fingerprint when the batch ran one).

export interface Provenance {
  workflowId: string;
  workflowName: string;
  parameters: unknown;
  executionId: string | null;
  creditsCharged: number;
  sourceName: string;
  sourceSha256: string | null;
  /** The recipe the batch ran (docs/recipes.md): its name and fingerprint, so a result says which saved edit made it. */
  recipe?: { name: string; fingerprint: string } | undefined;
}

export interface ResultMetadataRequest {
  /** The original the metadata comes from (a local file), or null (a URL input: nothing to copy). */
  source: string | null;
  policy: MetadataPolicy;
  provenance: Provenance;
  /** The result's real pixel size. */
  width: number;
  height: number;
}

export interface ResultMetadataOutcome {
  /** What could not be done (the result is saved all the same). */
  warnings: string[];
}

export interface ResultMetadataWriter {
  apply(resultPath: string, request: ResultMetadataRequest): Promise<ResultMetadataOutcome>;
  /** When and with what camera a source was taken (read once per file, cached): naming tokens and the result's mtime. */
  capture(source: string): Promise<CaptureInfo | null>;
  /** One ExifTool command on the shared process (sidecars); its standard output. */
  command: ExifToolCommand;
  /**
   * Starts the ExifTool process now, in the background (once): the engine calls it when its first photo has been
   * accepted, so the process's start (≈ 0.5 s of Perl) overlaps the service's work instead of holding up the first
   * save. A failure to start shows at the first real use, as before. Nothing once end() was called: an accept that
   * arrives after the engine stopped would start a process nobody ends.
   */
  warmUp(): void;
  /**
   * Ends the ExifTool process (no orphan perl processes). Final: apply, capture reads and commands afterwards reject
   * with MetadataWriterEnded and start nothing.
   */
  end(): Promise<void>;
}

/**
 * A use of the writer after end(): the engine is stopping. Thrown rather than starting a new ExifTool process that
 * nobody would end, and rather than reported as a metadata warning — a result is never saved without the metadata the
 * user asked for because the app was quitting; the saver abandons it and recovery saves it on the next start.
 */
export class MetadataWriterEnded extends Error {
  constructor() {
    super('the metadata writer has ended (the engine is stopping)');
    this.name = 'MetadataWriterEnded';
  }
}

export const XMP_NAMESPACE = 'https://batchroom.app/ns/provenance/1.0/';

/** ExifTool user-defined XMP namespace for the provenance fields. */
const CONFIG = `%Image::ExifTool::UserDefined = (
  'Image::ExifTool::XMP::Main' => {
    batchroom => { SubDirectory => { TagTable => 'Image::ExifTool::UserDefined::batchroom' } },
  },
);
%Image::ExifTool::UserDefined::batchroom = (
  GROUPS => { 0 => 'XMP', 1 => 'XMP-batchroom', 2 => 'Image' },
  NAMESPACE => { 'batchroom' => '${XMP_NAMESPACE}' },
  WRITABLE => 'string',
  WorkflowId => { }, WorkflowName => { }, Parameters => { }, ExecutionId => { }, CreditsCharged => { },
  SourceName => { }, SourceSHA256 => { }, RecipeName => { }, RecipeFingerprint => { },
);
1;
`;

/**
 * `-stay_open` ExifTool keeps reading its argument file past end of input, so a parent killed with -9 would leave
 * it running forever. This Perl prologue checks every 2 s that the process that started it is still its parent and
 * exits otherwise, then runs ExifTool itself (its library is found from $0). The alarm is installed with SA_RESTART:
 * a plain `$SIG{ALRM}` interrupted ExifTool's idle read, which then warned on stderr ("uninitialized value $result"),
 * and exiftool-vendored replaced the process as unhealthy — a new Perl start (≈ 0.2–0.5 s) every 2 s of a batch.
 * And it is a safe (deferred) signal: POSIX::sigaction's default is an unsafe one, whose handler runs at once in
 * signal context, even in the middle of a write or of malloc; deferred, the check runs between two Perl operations.
 * A restarted read does not return to Perl, so while ExifTool waits for its next command the check waits with it —
 * and runs as soon as the read returns, which it does when the parent dies (end of input): ExifTool still ends ≈ 2 s
 * after a killed app.
 */
const WATCHDOG = 'use POSIX (); my $p = getppid(); my $act = POSIX::SigAction->new(sub { exit 0 if getppid() != $p; alarm 2 }, ' +
  'POSIX::SigSet->new(), POSIX::SA_RESTART()); $act->safe(1); POSIX::sigaction(POSIX::SIGALRM(), $act); alarm 2; ' +
  'my $e = shift @ARGV; $0 = $e; do $e; die $@ if $@;';

/** Perl's arguments that run the ExifTool script at `exiftoolPath` under the watchdog. */
export function watchdogArgs(exiftoolPath: string, args: string[]): string[] {
  return ['-e', WATCHDOG, exiftoolPath, ...args];
}

function spawnWithWatchdog(exiftoolPath: string, args: string[]): ChildProcess {
  return spawn('perl', watchdogArgs(exiftoolPath, args), { stdio: 'pipe', shell: false, detached: false, env: { ...process.env, LANG: 'C' } });
}

/** ExifTool's -E decoding: `&`, `<`, `>`, quotes and every whitespace but the space as character references. */
export function escapeValue(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[^\S ]|\0/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The shared ExifTool process and a maker of raw commands on it. */
interface LoadedExifTool {
  tool: ExifTool;
  /** A raw command: rejects on an ExifTool error, resolves to its standard output. */
  task(args: string[]): ExifToolTask<string>;
}

/**
 * Provenance as ExifTool assignments. Writes run with -E (exiftool-vendored's WriteTask), so values are escaped: a
 * line break or `&` in a caption arrives intact instead of breaking the command.
 */
export function provenanceArgs(p: Provenance, creatorTool: string): string[] {
  const esc = (value: string | number) => escapeValue(String(value));
  return [
    `-XMP-xmp:CreatorTool=${esc(creatorTool)}`,
    `-XMP-batchroom:WorkflowId=${esc(p.workflowId)}`, `-XMP-batchroom:WorkflowName=${esc(p.workflowName)}`,
    `-XMP-batchroom:Parameters=${esc(JSON.stringify(p.parameters ?? {}))}`, `-XMP-batchroom:ExecutionId=${esc(p.executionId ?? '')}`,
    `-XMP-batchroom:CreditsCharged=${p.creditsCharged}`, `-XMP-batchroom:SourceName=${esc(p.sourceName)}`,
    `-XMP-batchroom:SourceSHA256=${esc(p.sourceSha256 ?? '')}`,
    // Only a batch made from a recipe says one: an empty tag would read as "a recipe with no name".
    ...(p.recipe ? [`-XMP-batchroom:RecipeName=${esc(p.recipe.name)}`, `-XMP-batchroom:RecipeFingerprint=${esc(p.recipe.fingerprint)}`] : []),
  ];
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);

export function createResultMetadataWriter(options: { configDir: string; creatorTool: string }): ResultMetadataWriter {
  let tool: Promise<LoadedExifTool> | null = null;
  let warming = false;
  let ended = false;
  const exiftool = (): Promise<LoadedExifTool> => {
    if (ended) return Promise.reject(new MetadataWriterEnded());
    tool ??= (async () => {
      // Loaded with the first result, not when the engine starts (≈ 0.1 s of modules): a run's first submit
      // should not wait for what only saving needs.
      const { ExifTool, ExifToolTask, exiftoolPath } = await import('exiftool-vendored');
      const path = process.platform === 'win32' ? '' : await exiftoolPath();
      class CommandTask extends ExifToolTask<string> {
        protected parse(stdout: string, error?: Error): string {
          if (error) throw error;
          return stdout;
        }
      }
      await mkdir(options.configDir, { recursive: true });
      const config = join(options.configDir, 'exiftool-batchroom.config');
      const temp = `${config}.${process.pid}.tmp`;
      await writeFile(temp, CONFIG);
      await rename(temp, config);
      // `-config` must come first on ExifTool's command line.
      const instance = new ExifTool({
        maxProcs: 1, exiftoolArgs: ['-config', config, '-stay_open', 'True', '-@', '-'], taskTimeoutMillis: 60_000,
        ...(process.platform === 'win32' ? {} : { processFactory: () => spawnWithWatchdog(path, ['-config', config, '-stay_open', 'True', '-@', '-']) }),
      });
      return { tool: instance, task: (args: string[]) => new CommandTask(args) };
    })();
    return tool;
  };
  const command: ExifToolCommand = async (args) => {
    const { tool: et, task } = await exiftool();
    return et.enqueueTask(() => task([...args]), false);
  };
  const captures = new CaptureCache(command);
  // The result's modification time is the original's capture time, so date-sorted folders keep their order.
  const keepCaptureTime = async (resultPath: string, source: string | null) => {
    const info = source ? await captures.get(source) : null;
    const at = info ? new Date(info.capturedAtMs) : null;
    if (at) await utimes(resultPath, at, at).catch(() => undefined);
  };
  const run = async (resultPath: string, args: string[]) => {
    const { tool: et } = await exiftool();
    // -overwrite_original writes `<result>_exiftool_tmp` and renames it over the result; a write that fails half way
    // (a full disk) can leave it behind: removed here, whatever ExifTool did.
    const written = await et.write(resultPath, {}, { writeArgs: ['-overwrite_original', '-m', ...args], useMWG: false })
      .catch(async (error: unknown) => {
        await unlink(`${resultPath}_exiftool_tmp`).catch(() => undefined);
        throw error;
      });
    // ExifTool refuses the whole command for some errors (an original that cannot be opened for -tagsFromFile) and
    // exits 1, which exiftool-vendored reports as a write that touched no file rather than as an error.
    if (written.created + written.updated + written.unchanged === 0) {
      await unlink(`${resultPath}_exiftool_tmp`).catch(() => undefined);
      throw new Error(written.warnings?.join('; ') || 'ExifTool wrote nothing (the original could not be read?)');
    }
  };

  // Ended while this result was being written: a step may have failed (or its capture time been skipped) because the
  // process went away, which says nothing about the photo's metadata — it is the stop, not a warning.
  const outcome = (warnings: string[]): ResultMetadataOutcome => {
    if (ended) throw new MetadataWriterEnded();
    return { warnings };
  };

  return {
    async apply(resultPath, request) {
      if (ended) throw new MetadataWriterEnded();
      const warnings: string[] = [];
      const { source, policy } = request;
      // One ExifTool command per result: copying and setting in one pass (assignments after -tagsFromFile win over
      // copied values, and a group deletion removes copied tags too). With small photos the per-result work bounds a
      // batch, and a second pass on the one -stay_open process cost as much as the first. When the one pass fails,
      // the steps run one by one so that what can be written still is, each with its own warning.
      if (policy === 'strip') {
        const dpi = source ? ['-tagsFromFile', source, '-XResolution', '-YResolution', '-ResolutionUnit'] : [];
        const ok = await run(resultPath, [...STRIP_ALL, ...dpi]).then(() => true, () => false);
        if (!ok) {
          await run(resultPath, STRIP_ALL).catch((e: unknown) => warnings.push(`metadata not removed: ${firstLine(e)}`));
          if (source) await run(resultPath, dpi).catch((e: unknown) => warnings.push(`DPI not copied: ${firstLine(e)}`));
        }
        await keepCaptureTime(resultPath, source);
        return outcome(warnings);
      }
      const copy = source ? copyArgs(source) : [];
      // The offset the capture date was placed in time by, written beside EXIF's date: where it came from the value
      // itself (XMP, IPTC) or a record ExifTool cannot copy (FLIR), the result's EXIF date alone reads as local time.
      const offset = source ? (await captures.get(source))?.captureOffset : null;
      const set = [
        '-n', '-Orientation#=1', `-ExifImageWidth=${request.width}`, `-ExifImageHeight=${request.height}`,
        ...(offset ? [`-ExifIFD:OffsetTimeOriginal=${offset}`] : []),
        ...provenanceArgs(request.provenance, options.creatorTool),
        ...(policy === 'strip-gps' ? NO_LOCATION : []),
        ...(source ? IPTC_UTF8 : []),
      ];
      const ok = await run(resultPath, [...copy, ...set]).then(() => true, () => false);
      if (!ok) {
        if (source) await run(resultPath, copy).catch((e: unknown) => warnings.push(`metadata not copied from the original: ${firstLine(e)}`));
        await run(resultPath, set).catch((e: unknown) => warnings.push(`provenance not written: ${firstLine(e)}`));
      }
      if (source) {
        // ExifTool copies what it can read of damaged EXIF without a word: the capture read (cached) says so.
        const damaged = (await captures.get(source))?.warning;
        if (damaged) warnings.push(`the original's metadata is damaged (${damaged}): what could be read was copied`);
      }
      await keepCaptureTime(resultPath, source);
      return outcome(warnings);
    },
    capture: (source) => captures.get(source),
    command,
    warmUp() {
      if (warming || ended) return;
      warming = true;
      exiftool().then(({ tool: et }) => et.version()).catch(() => undefined);
    },
    async end() {
      ended = true;
      const current = tool;
      tool = null;
      warming = false;
      if (current) await (await current).tool.end();
    },
  };
}
