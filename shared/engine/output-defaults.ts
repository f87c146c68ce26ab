// Output defaults as plain constants, apart from the zod schemas in model.ts: the CLI's --help reads them and must
// not load zod (built-cli.test.ts holds the bundle to that).

/** The folder created next to the photos when a batch names no output folder (settings: "next to originals"). */
export const DEFAULT_OUTPUT_FOLDER_NAME = 'Batchroom';
