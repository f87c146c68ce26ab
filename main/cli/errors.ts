import { isAppError, type ErrorCode } from '../../shared/errors';
import { redactSecrets } from '../../shared/redact';
import { EXIT, type ExitCode } from './exit-codes';

/** A mistake in how the command was called (bad flag value, unknown field): exit 2, with a hint. */
export class UsageError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const EXIT_BY_CODE: Partial<Record<ErrorCode, ExitCode>> = {
  bad_request: EXIT.usage,
  validation: EXIT.usage,
  unauthorized: EXIT.auth,
  keychain_unavailable: EXIT.auth,
  missing_key: EXIT.auth,
  key_not_sent: EXIT.auth,
  insufficient_credits: EXIT.credits,
  budget_exceeded: EXIT.credits,
  cancelled: EXIT.interrupted,
};

const HINT_BY_CODE: Partial<Record<ErrorCode, string>> = {
  unauthorized: 'Check the key with `batchroom key status`; store one with `batchroom key set` or set BATCHROOM_API_KEY.',
  keychain_unavailable: 'Unlock or install a keyring, or provide the key through BATCHROOM_API_KEY.',
  missing_key: 'Store one with `batchroom key set` (reads the key from stdin) or set BATCHROOM_API_KEY.',
  insufficient_credits: 'Top up the account, or process fewer files; `batchroom balance` shows what is left.',
  budget_exceeded: 'Raise --budget, or process fewer files.',
  not_found: '`batchroom workflows` lists the workflows this service offers.',
  network: 'Is the service reachable? Check --service-url and the network connection.',
  timeout: 'The service did not answer in time; try again, or check the network.',
  server: 'The service had a problem; try again in a moment.',
  rate_limited: 'The service is throttling requests; try again in a moment.',
  bad_request: 'See `batchroom <command> --help`.',
  validation: 'See `batchroom workflow <id>` for the fields this workflow takes.',
  conflict: 'Wait for the other process to finish (or stop it), or use another --state-dir.',
  unavailable: 'This part of Batchroom could not start; run with --debug for details.',
};

export interface CliFailure {
  exitCode: ExitCode;
  message: string;
  hint?: string;
}

/** One readable line plus a hint for any error; secrets scrubbed. */
export function describeFailure(error: unknown, secrets: readonly string[] = []): CliFailure {
  const scrub = (text: string) => redactSecrets(text, secrets);
  if (error instanceof UsageError) return { exitCode: EXIT.usage, message: scrub(error.message), hint: error.hint };
  if (isAppError(error)) {
    return {
      exitCode: EXIT_BY_CODE[error.code] ?? EXIT.failed,
      message: scrub(error.message),
      // The error's own hint says the most (which key, which keychain); the code's is the general advice.
      hint: error.hint ? scrub(error.hint) : HINT_BY_CODE[error.code],
    };
  }
  if (error instanceof Error) {
    return { exitCode: EXIT.failed, message: scrub(error.message), hint: 'Run again with --debug for details.' };
  }
  return { exitCode: EXIT.failed, message: scrub(String(error)) };
}

export function formatFailure(failure: CliFailure): string {
  const firstLine = failure.message.split('\n')[0]?.trim() || 'failed';
  return `batchroom: ${firstLine}\n${failure.hint ? `  hint: ${failure.hint}\n` : ''}`;
}
