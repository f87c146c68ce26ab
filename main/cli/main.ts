import { Command, CommanderError } from 'commander';
import { APP_NAME, APP_VERSION } from '../../shared/app-info';
import { EXIT } from './exit-codes';

/**
 * Builds the `batchroom` program. Each command lives in `./commands/<name>.ts` and registers itself here, so
 * commands stay small and independently testable.
 */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('batchroom')
    .description(`${APP_NAME}: send photo batches through an AI image-editing service and save the results.`)
    .version(APP_VERSION, '-V, --version')
    .option('--service-url <url>', 'service base URL (default: the built-in sandbox when no key is set)')
    .option('--api-key <key>', 'API key (discouraged: visible in process lists; prefer the keychain or BATCHROOM_API_KEY)')
    .option('--state-dir <dir>', 'where settings and the journal live (or BATCHROOM_STATE_DIR)')
    .option('--json', 'machine-readable output (NDJSON for long-running commands)')
    .option('--quiet', 'print only errors and the final summary')
    .option('--debug', 'print stack traces for errors')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  return program;
}

/** Runs the CLI and resolves to the process exit code (never throws). */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return EXIT.ok;
      return EXIT.usage;
    }
    const debug = argv.includes('--debug');
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`batchroom: ${message}\n`);
    if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return EXIT.failed;
  }
}
