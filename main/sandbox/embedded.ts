import { join } from 'node:path';

// The built-in sandbox as the hosts hand it to the core for sandbox mode (CoreOptions.startEmbeddedService). Loaded
// on demand: the sandbox pulls in sharp and its workflows, which a live-service command never needs.

/** The file in the state folder that holds the embedded sandbox's key and balance. */
export const SANDBOX_ACCOUNT_FILE = 'sandbox-account.db';

export interface EmbeddedSandboxOptions {
  /**
   * The state folder: the sandbox's account (its key and API credits) is kept there, so the balance goes down across
   * commands and is shared with the app on the same folder. Without it, a fresh in-memory account per start.
   */
  stateDir?: string;
}

export async function startEmbeddedSandbox(options: EmbeddedSandboxOptions = {}): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const [{ startSandbox, generateTestKey }, { sandboxKeyIn }] = await Promise.all([import('./index'), import('./credit-ledger')]);
  if (!options.stateDir) return startSandbox({});
  const file = join(options.stateDir, SANDBOX_ACCOUNT_FILE);
  return startSandbox({ apiKey: sandboxKeyIn(file, generateTestKey), creditsFile: file });
}
