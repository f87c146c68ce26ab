// The secrets the current command has seen (a key from a flag, the environment or the keychain), so every printer —
// usage errors, the top-level error line, logs — scrubs them. Its own module so the CLI's start (argv scanning,
// commander's output) does not load the session and its IPC contract.

const activeSecrets = new Set<string>();

export function knownSecrets(): string[] {
  return [...activeSecrets];
}

export function rememberSecret(secret: string | undefined): void {
  if (secret && secret.length >= 4) activeSecrets.add(secret);
}
