// Option parsers commander calls while it reads the command line. Kept apart from run-spec.ts (which checks a run
// against the workflow and the settings' zod schemas) so defining the commands — all `--help` does — loads neither.

/** A repeatable option (`--text a=1 --text b=2`): every value, in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
