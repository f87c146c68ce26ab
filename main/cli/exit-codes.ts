/** Exit codes are part of the CLI's contract with scripts (documented in docs/cli.md). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  auth: 3,
  credits: 4,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
