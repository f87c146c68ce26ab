// The CLI's bell rule, apart from the zod schema of attention.ts: `run` loads it at start-up, where --help must not
// load zod (built-cli.test.ts).

/**
 * The CLI's bell (BEL, \u0007) at the end of `run`/`resume`: only to a person at a terminal who did not ask for quiet
 * or machine output, and only while the setting is on.
 */
export function shouldRingBell(options: { isTTY: boolean | undefined; quiet: boolean; json: boolean; enabled: boolean }): boolean {
  return options.isTTY === true && !options.quiet && !options.json && options.enabled;
}

export const BELL = '\u0007';
