import type { Command } from 'commander';
import { AppError } from '../../../shared/errors';
import { maskKey } from '../../../shared/redact';
import type { Balance } from '../../../shared/service/model';
// From the modules themselves, not the secrets index: that would also load validate-key.ts and with it zod, which
// only `key set`/`status` need (loaded there) — `batchroom --help` defines this command too.
import { API_KEY_ENV, getKeyStatus, resolveCredentials } from '../../core/secrets/credentials';
import { createKeychainSecretStore, type SecretStore } from '../../core/secrets/secret-store';
import { normalizeServiceUrl } from '../../core/secrets/service-url';
import type { KeyRejectReason, KeyValidator } from '../../core/secrets/validate-key';
import { createLogger } from '../../core/log';
import type { SettingsStore } from '../../core/settings';
import { EXIT } from '../exit-codes';

interface KeyGlobals {
  serviceUrl?: string;
  apiKey?: string;
  stateDir?: string;
  json?: boolean;
  quiet?: boolean;
}

/** What `key` commands need; injectable so tests can swap the validator or the keychain. */
export interface KeyCommandDeps {
  secretStore: () => SecretStore;
  validator: () => KeyValidator;
  env: () => Readonly<Record<string, string | undefined>>;
  readKey: () => Promise<string>;
}

const EXIT_BY_REASON: Record<KeyRejectReason, number> = {
  unauthorized: EXIT.auth,
  malformed: EXIT.usage,
  'wrong-url': EXIT.usage,
  network: EXIT.failed,
};

function defaultDeps(): KeyCommandDeps {
  return {
    secretStore: () => createKeychainSecretStore(),
    // The real service client (same wire normalization and error mapping as every other command); quiet, since the
    // command reports the verdict itself.
    validator: () => async (...args) => {
      // Loaded when a key is checked, not when the CLI starts.
      const { serviceKeyValidator } = await import('../../core/app/settings-handlers');
      return serviceKeyValidator(createLogger({ sink: () => undefined, minLevel: 'error' }))(...args);
    },
    env: () => process.env,
    readKey: readKeyFromStdin,
  };
}

/** Reads the key from stdin: piped (`pass show x | batchroom key set`) or typed/pasted with echo off. */
export async function readKeyFromStdin(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  process.stderr.write('Paste the API key and press Enter (it is not shown): ');
  return new Promise<string>((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed.trim());
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new AppError('cancelled', 'Interrupted: no key was stored.'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

async function openSettings(globals: KeyGlobals): Promise<SettingsStore> {
  const { openSettingsStore, resolveStateDir } = await import('../../core/settings');
  const store = openSettingsStore({ stateDir: resolveStateDir({ stateDir: globals.stateDir }) });
  if (!globals.quiet) for (const warning of store.warnings) process.stderr.write(`batchroom: ${warning.message}\n`);
  return store;
}

const balanceText = (balance: Balance | null) => (balance ? `${balance.apiCredits} API credits` : 'unknown');

/** `batchroom key set|status|delete`: the API key in the OS keychain, per service URL. */
export function registerKeyCommand(program: Command, deps: KeyCommandDeps = defaultDeps()): void {
  const key = program
    .command('key')
    .description('manage the API key kept in the OS keychain (per service URL)')
    .addHelpText('after', `\nThe key never goes into a file. ${API_KEY_ENV} overrides the keychain (headless machines, CI).`);

  key
    .command('set')
    .description('read a key from stdin, check it against the service (balance), and store it in the keychain')
    .action(async (_flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<KeyGlobals>();
      const settings = (await openSettings(globals)).get();
      const serviceUrl = normalizeServiceUrl(globals.serviceUrl ?? settings.serviceUrl);
      if (globals.apiKey) process.stderr.write('batchroom: key set reads the key from stdin; --api-key is ignored here.\n');
      const apiKey = await deps.readKey();
      const { saveValidatedKey } = await import('../../core/secrets/validate-key');
      const result = await saveValidatedKey({ secretStore: deps.secretStore(), serviceUrl, apiKey, validate: deps.validator() });
      if (globals.json) process.stdout.write(`${JSON.stringify(result)}\n`);
      if (!result.ok) {
        if (!globals.json) process.stderr.write(`batchroom: ${result.message}\n`);
        process.exitCode = EXIT_BY_REASON[result.reason];
        return;
      }
      if (!globals.json) {
        process.stdout.write(`Saved ${result.masked} for ${result.serviceUrl} in the OS keychain. Balance: ${balanceText(result.balance)}.\n`);
        if (deps.env()[API_KEY_ENV]) process.stderr.write(`batchroom: note: ${API_KEY_ENV} is set and takes precedence over this key.\n`);
        if (settings.sandboxMode === 'always') process.stderr.write('batchroom: note: sandbox mode is "always"; the key is used once it is changed.\n');
      }
    });

  key
    .command('status')
    .description('show the masked key in use, its source, the service URL and the balance')
    .action(async (_flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<KeyGlobals>();
      const settings = (await openSettings(globals)).get();
      const inputs = { settings, env: deps.env(), secretStore: deps.secretStore(), flags: { serviceUrl: globals.serviceUrl, apiKey: globals.apiKey } };
      const status = await getKeyStatus(inputs);
      let balance: Balance | null = null;
      let balanceProblem: string | null = null;
      if (status.hasKey) {
        const credentials = await resolveCredentials(inputs);
        if (credentials.mode === 'live') {
          const verdict = await deps.validator()(credentials.serviceUrl, credentials.apiKey);
          if (verdict.ok) balance = verdict.balance;
          else {
            balanceProblem = `${verdict.reason}: ${verdict.detail}`;
            process.exitCode = verdict.reason === 'unauthorized' ? EXIT.auth : EXIT.failed;
          }
        }
      }
      if (globals.json) {
        process.stdout.write(`${JSON.stringify({ ...status, balance, balanceProblem })}\n`);
        return;
      }
      const lines = [
        `Mode:        ${status.mode}${status.sandboxReason ? ` (${status.sandboxReason})` : ''}`,
        `Service URL: ${status.serviceUrl}`,
        `Key:         ${status.keyMasked ?? 'none'}${status.source !== 'none' ? ` (from ${status.source})` : ''}`,
        `Keychain:    ${status.keychainAvailable ? 'available' : 'unavailable'}`,
      ];
      if (status.hasKey) lines.push(`Balance:     ${balanceProblem ? `not read (${balanceProblem})` : balanceText(balance)}`);
      lines.push('', status.message);
      process.stdout.write(`${lines.join('\n')}\n`);
    });

  key
    .command('delete')
    .description('remove the stored key for the service URL from the keychain')
    .action(async (_flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<KeyGlobals>();
      const settings = (await openSettings(globals)).get();
      const serviceUrl = normalizeServiceUrl(globals.serviceUrl ?? settings.serviceUrl);
      const store = deps.secretStore();
      const masked = await store.masked(serviceUrl);
      const deleted = await store.delete(serviceUrl);
      if (globals.json) process.stdout.write(`${JSON.stringify({ deleted, serviceUrl, masked })}\n`);
      else if (deleted) process.stdout.write(`Deleted ${masked ?? maskKey('')} for ${serviceUrl} from the OS keychain.\n`);
      else process.stdout.write(`No key was stored for ${serviceUrl}.\n`);
    });
}
