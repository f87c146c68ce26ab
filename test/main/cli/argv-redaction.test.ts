import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { redactCliText, secretsInArgv } from '../../../main/cli/argv-secrets';
import { main } from '../../../main/cli/main';

// Every way the CLI prints (parts of) its command line, with a key on it: none may show the key.
const LIVE = 'sk_live_Zq7ABCDEFGHJKLMN4321';
const PLAIN = 'PlainCustomKeyValue9876';
const stateDir = mkdtempSync(join(tmpdir(), 'batchroom-argv-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

let printed: string;
beforeEach(() => {
  printed = '';
  const capture = (chunk: unknown) => {
    printed += String(chunk);
    return true;
  };
  vi.spyOn(process.stderr, 'write').mockImplementation(capture as typeof process.stderr.write);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture as typeof process.stdout.write);
  vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  vi.stubEnv('BATCHROOM_STATE_DIR', stateDir);
  vi.stubEnv('BATCHROOM_API_KEY', '');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the CLI never echoes a key from its command line', () => {
  it.each([
    ['a mistyped flag with =value (live key)', ['--api-kye=' + LIVE, 'workflows']],
    ['a mistyped flag with =value (key of no known shape)', ['--apikey=' + PLAIN, 'workflows']],
    ['a mistyped subcommand flag with =value', ['workflows', '--api_key=' + PLAIN]],
    ['an unknown command after --api-key', ['--api-key', PLAIN, 'workflos']],
    ['too many arguments after --api-key=', ['--api-key=' + PLAIN, 'balance', 'extra']],
    ['a usage error from a command that echoes its value', ['--api-key', PLAIN, 'ui', '--port', PLAIN]],
    ['a sandbox key on a mistyped sandbox flag', ['sandbox', '--sandbox-key=' + PLAIN, '--credit=' + PLAIN]],
    ['a missing option value next to a key', ['--api-key', PLAIN, 'workflow']],
  ])('%s', async (_name, argv) => {
    const code = await main(argv);
    expect(code).toBe(2);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed).not.toContain(PLAIN);
    expect(printed).not.toContain(LIVE.slice(8, 20));
  });

  it('scrubs a key from the BATCHROOM_API_KEY environment in usage errors too', async () => {
    vi.stubEnv('BATCHROOM_API_KEY', PLAIN);
    await main(['ui', '--port', PLAIN]);
    expect(printed).toContain('--port');
    expect(printed).not.toContain(PLAIN);
  });
});

describe('argv secrets', () => {
  it.each([
    [['--api-key', PLAIN], [PLAIN]],
    [['--api-key=' + PLAIN], [PLAIN]],
    [['sandbox', '--sandbox-key', 'sk_test_abcdefgh'], ['sk_test_abcdefgh']],
    [['--api-key'], []],
    [['workflows', '--json'], []],
  ])('finds the secrets in %j', (argv, expected) => {
    expect(secretsInArgv(argv)).toEqual(expected);
  });

  it('drops the value of any echoed --option=value and masks keys, keeping the rest readable', () => {
    expect(redactCliText(`error: unknown option '--apikey=${PLAIN}'`, [])).toBe("error: unknown option '--apikey=…'");
    expect(redactCliText(`bad ${LIVE} here`, [])).not.toContain(LIVE.slice(8, 20));
    expect(redactCliText(`got "${PLAIN}"`, [PLAIN])).not.toContain(PLAIN);
  });
});
