// The built-in sandbox as the hosts hand it to the core for sandbox mode (CoreOptions.startEmbeddedService). Loaded
// on demand: the sandbox pulls in sharp and its workflows, which a live-service command never needs.
export async function startEmbeddedSandbox(): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const { startSandbox } = await import('./index');
  return startSandbox({});
}
