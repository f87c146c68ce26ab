import { AppError } from '../../../shared/errors';
import { redactSecrets } from '../../../shared/redact';

/**
 * The OS keychain cannot be reached (no D-Bus session, no Secret Service, a locked keyring, or keytar failed to
 * load). Batchroom never falls back to storing the key in a file, so the hint names the two ways out.
 */
export class KeychainUnavailableError extends AppError {
  override readonly name = 'KeychainUnavailableError';
  /** The underlying keychain error message, redacted (for --debug, "Details" and logs). */
  readonly system: string;

  constructor(system: string) {
    const clean = redactSecrets(system);
    // Spoken to the user: what happened and what to do. The system's own words ("Cannot autolaunch D-Bus without
    // X11 $DISPLAY") stay in `detail.system`.
    super('keychain_unavailable', 'The system keychain is not available: Batchroom cannot keep an API key there right now.', {
      hint:
        'Unlock your keychain (on Linux: sign in to a desktop whose keyring, such as GNOME Keyring or KeePassXC, is running), ' +
        'or give the key in the BATCHROOM_API_KEY environment variable. Batchroom never stores a key in a plain-text file.',
      system: clean,
    });
    this.system = clean;
  }
}

/** A live service was requested explicitly (sandbox mode "never", or an explicit service URL) but no key exists. */
export class MissingApiKeyError extends AppError {
  override readonly name = 'MissingApiKeyError';
  constructor(readonly serviceUrl: string) {
    super('missing_key', `No API key for ${serviceUrl}.`, {
      hint: 'Store one with `batchroom key set` (reads the key from stdin), in Settings, or set BATCHROOM_API_KEY.',
    });
  }
}

/**
 * A key would travel where it must not: a live key over plain http to another machine, or a sandbox key (sk_test_)
 * off this machine. Nothing is sent; the message says which rule and the hint how to fix the service URL.
 */
export class KeyTransportError extends AppError {
  override readonly name: string = 'KeyTransportError';
  constructor(
    readonly serviceUrl: string,
    reason: string,
    hint = 'Use the https:// address of the service, or `--service-url` with a matching `--api-key` for another service.',
  ) {
    super('key_not_sent', `The API key was not sent to ${serviceUrl}: ${reason}.`, { hint });
  }
}

/**
 * A flag/environment key presented to a service origin other than the one it was first used with: not sent until
 * the user says so (a KeyTransportError, so every caller that handles refusals handles this one).
 */
export class KeyOriginError extends KeyTransportError {
  override readonly name: string = 'KeyOriginError';
  constructor(serviceUrl: string, reason: string) {
    super(serviceUrl, reason, 'If the new service is right: give its address with the key (`--service-url <url>`), or confirm in Settings.');
  }
}
