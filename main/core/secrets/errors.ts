import { redactSecrets } from '../../../shared/redact';

/**
 * The OS keychain cannot be reached (no D-Bus session, no Secret Service, a locked keyring, or keytar failed to
 * load). Batchroom never falls back to storing the key in a file, so the message names the two ways out.
 */
export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
  readonly hint: string;
  /** The underlying keychain error message, redacted (for --debug and logs). */
  readonly detail: string;

  constructor(detail: string) {
    const clean = redactSecrets(detail);
    // Spoken to the user: what happened and what to do. The system's own words ("Cannot autolaunch D-Bus without
    // X11 $DISPLAY") stay in `detail`, for --debug and the log.
    super('The system keychain is not available: Batchroom cannot keep an API key there right now.');
    this.detail = clean;
    this.hint =
      'Unlock your keychain (on Linux: sign in to a desktop whose keyring, such as GNOME Keyring or KeePassXC, is running), ' +
      'or give the key in the BATCHROOM_API_KEY environment variable. Batchroom never stores a key in a plain-text file.';
  }
}

/** A live service was requested explicitly (sandbox mode "never", or an explicit service URL) but no key exists. */
export class MissingApiKeyError extends Error {
  override readonly name = 'MissingApiKeyError';
  readonly hint = 'Store one with `batchroom key set` (reads the key from stdin) or set BATCHROOM_API_KEY.';
  constructor(readonly serviceUrl: string) {
    super(`No API key for ${serviceUrl}.`);
  }
}

/**
 * A key would travel where it must not: a live key over plain http to another machine, or a sandbox key (sk_test_)
 * off this machine. Nothing is sent; the message says which rule and the hint how to fix the service URL.
 */
export class KeyTransportError extends Error {
  override readonly name: string = 'KeyTransportError';
  readonly hint: string = 'Use the https:// address of the service, or `--service-url` with a matching `--api-key` for another service.';
  constructor(readonly serviceUrl: string, reason: string) {
    super(`The API key was not sent to ${serviceUrl}: ${reason}.`);
  }
}

/**
 * A flag/environment key presented to a service origin other than the one it was first used with: not sent until
 * the user says so (a KeyTransportError, so every caller that handles refusals handles this one).
 */
export class KeyOriginError extends KeyTransportError {
  override readonly name: string = 'KeyOriginError';
  override readonly hint: string = 'If the new service is right: give its address with the key (`--service-url <url>`), or confirm in Settings.';
}
