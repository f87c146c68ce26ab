import { redactSecrets } from '../../shared/redact';
import { knownSecrets, rememberSecret } from './secrets-seen';

/** Flags whose value is a secret; `--flag value` and `--flag=value` are both understood. */
const SECRET_FLAGS = ['--api-key', '--sandbox-key'] as const;
/** The environment variable a key may come from (its value is scrubbed like a flag's). */
const SECRET_ENV = ['BATCHROOM_API_KEY'] as const;

/** The secret values on a command line (and in the environment), to scrub from anything the CLI prints. */
export function secretsInArgv(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): string[] {
  const found: string[] = [];
  argv.forEach((arg, index) => {
    for (const flag of SECRET_FLAGS) {
      if (arg === flag && index + 1 < argv.length) found.push(argv[index + 1]!);
      else if (arg.startsWith(`${flag}=`)) found.push(arg.slice(flag.length + 1));
    }
  });
  for (const name of SECRET_ENV) if (env[name]?.trim()) found.push(env[name]!.trim());
  return found.filter((value) => value.length >= 4);
}

/**
 * Scrubs a line the CLI is about to print: the known secrets, anything shaped like a key, and the value of any
 * `--option=value` a usage error echoes — a mistyped `--api-kye=…` is not a flag we know is secret, so the value
 * of every echoed unknown option is dropped rather than guessed at.
 */
export function redactCliText(text: string, secrets: readonly string[] = knownSecrets()): string {
  return redactSecrets(text, secrets).replace(/(['"]?)(-{1,2}[A-Za-z][\w-]*)=[^'"\s]*\1/g, (_m, quote: string, flag: string) => `${quote}${flag}=…${quote}`);
}

/** Remembers argv's and the environment's secrets so every printer (errors, logs, usage) scrubs them. */
export function rememberArgvSecrets(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): void {
  for (const secret of secretsInArgv(argv, env)) rememberSecret(secret);
}

/** Commander's output for the program and every subcommand: usage errors and suggestions pass the scrubber. */
export const redactedCommanderOutput = {
  writeErr: (text: string) => process.stderr.write(redactCliText(text)),
  outputError: (text: string, write: (text: string) => void) => write(redactCliText(text)),
};
