import { Command, CommanderError } from 'commander';
import { APP_NAME, APP_VERSION } from '../../shared/app-info';
import { isAppError } from '../../shared/errors';
import { registerBalanceCommand, registerWorkflowCommand, registerWorkflowsCommand } from './commands/catalog';
import { registerExportCommand } from './commands/export';
import { registerJournalCommand } from './commands/journal';
import { registerKeyCommand } from './commands/key';
import { registerRecipesCommand } from './commands/recipes';
import { registerReportCommand } from './commands/report';
import { registerResumeCommand } from './commands/resume';
import { registerRunCommand } from './commands/run';
import { registerSandboxCommand } from './commands/sandbox';
import { registerStudioCommand } from './commands/studio';
import { registerUiCommand } from './commands/ui';
import { registerUpdateCommand } from './commands/update';
import { registerWatchCommand } from './commands/watch';
import { redactCliText, redactedCommanderOutput, rememberArgvSecrets } from './argv-secrets';
import { describeFailure, formatFailure } from './errors';
import { EXIT } from './exit-codes';
import { knownSecrets } from './secrets-seen';
import { traceStart } from '../core/start-trace';

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
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput(redactedCommanderOutput);
  registerWorkflowsCommand(program);
  registerWorkflowCommand(program);
  registerBalanceCommand(program);
  registerRunCommand(program);
  registerResumeCommand(program);
  registerReportCommand(program);
  registerExportCommand(program);
  registerJournalCommand(program);
  registerUiCommand(program);
  registerWatchCommand(program);
  registerKeyCommand(program);
  registerRecipesCommand(program);
  registerSandboxCommand(program);
  registerStudioCommand(program);
  registerUpdateCommand(program);
  // Subcommands inherit the global flags' parsing and the exit override (usage errors → exit 2, never process.exit).
  for (const command of program.commands) command.exitOverride().configureOutput(redactedCommanderOutput);
  return program;
}

/**
 * A reader that goes away (`batchroom run … | head`, a closed terminal) is a stop, not a crash: the first EPIPE on
 * stdout stops the command as Ctrl-C does (the batch kept in the journal, what is at the service still saved by the
 * next start), and later writes to the closed pipe are dropped. Unhandled, the EPIPE killed the process mid-batch.
 */
function stopOnClosedStdout(): void {
  let closed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (closed) return;
    closed = true;
    process.emit('SIGTERM', 'SIGTERM');
  });
}

/** Runs the CLI and resolves to the process exit code (never throws). */
export async function main(argv: string[]): Promise<number> {
  traceStart('main');
  stopOnClosedStdout();
  const program = buildProgram();
  process.exitCode = undefined;
  // Before parsing: a usage error about any flag must already know which values on the line are keys.
  rememberArgvSecrets(argv, process.env);
  let code: number;
  try {
    await program.parseAsync(argv, { from: 'user' });
    code = typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return EXIT.ok;
      if (error.code === 'commander.help') return EXIT.usage; // help shown because no command was given
      return EXIT.usage;
    }
    const failure = describeFailure(error, knownSecrets());
    process.stderr.write(formatFailure(failure));
    if (argv.includes('--debug') && error instanceof Error) {
      // The system's own words (a keychain's D-Bus error, say) are kept out of the message and shown here.
      const system = isAppError(error) ? error.detail.system : undefined;
      if (typeof system === 'string' && system) process.stderr.write(`  detail: ${redactCliText(system)}\n`);
      if (error.stack) process.stderr.write(`${redactCliText(error.stack)}\n`);
    }
    code = failure.exitCode;
  }
  // Safety net: a stray handle (a socket in TIME_WAIT, a watcher) must not keep a finished command alive.
  setTimeout(() => process.exit(code), 3000).unref();
  return code;
}
