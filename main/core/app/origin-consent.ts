import { AppError } from '../../../shared/errors';
import type { ConsentRequest } from '../../../shared/ipc/channels/settings';
import { normalizeServiceUrl } from '../secrets';

// A compromised renderer can send any IPC message (docs/security.md), so "the user clicked" is not something the
// renderer can claim. Every step that would let a key, or the photos, leave for an origin the user has not chosen —
// moving a stored key to another service, trusting a new origin for the environment's key, changing the service —
// waits here for a confirmation that main owns: a native dialog (Electron) or a one-time code printed on the
// terminal that started the browser host. Both hosts share this gate; only the way they ask differs.

export type { ConsentRequest };

/** The host's way of asking the person at the machine. Resolves false when they refuse, or never answer. */
export interface ConfirmOriginChange {
  /** What the renderer should tell the user meanwhile: look at the dialog, or type the code from the terminal. */
  readonly via: 'dialog' | 'code';
  confirm(request: ConsentRequest): Promise<boolean>;
  /** Code hosts only: the code the user typed in the page (single-use; see main/host/consent-code.ts). */
  answer?(code: string): ConsentAnswer;
  /** Code hosts only: the page gave up; the waiting request is refused at once. */
  cancel?(): void;
}

export interface ConsentAnswer {
  accepted: boolean;
  /** Why not: a wrong code (tries left), none waiting, expired, or too many wrong tries (the code is void). */
  reason?: 'wrong' | 'none' | 'expired' | 'invalidated';
  triesLeft?: number;
}

/** Where a studio ledger's password goes (`postgres://host:port`), or that there is none. Unparseable: the URL itself. */
export function ledgerOriginOf(url: string | null | undefined): string {
  if (!url) return 'no studio ledger';
  try {
    const parsed = new URL(url.trim());
    return `postgres://${parsed.hostname}:${parsed.port || '5432'}`;
  } catch {
    return url;
  }
}

/** The origin of a service URL as the key travels to it (`https://api.example.com`). */
export function originOf(serviceUrl: string): string {
  return new URL(normalizeServiceUrl(serviceUrl)).origin;
}

/** The words every host shows: both origins, and what confirming lets the new one do. */
export function describeConsent(request: ConsentRequest): { title: string; message: string; detail: string; confirmLabel: string } {
  const { from, to } = request;
  const warning = `${to} will receive it with every request and can spend your credits. Confirm only if you asked for this in Batchroom just now.`;
  switch (request.kind) {
    case 'move-key':
      return { title: 'Send your API key to another service?', message: `Send the API key saved for ${from} to ${to}?`, detail: warning, confirmLabel: `Send it to ${to}` };
    case 'trust-origin':
      return {
        title: 'Send your API key to another service?',
        message: `The key from BATCHROOM_API_KEY (or --api-key) was first used with ${from}. Send it to ${to}?`,
        detail: warning,
        confirmLabel: `Send it to ${to}`,
      };
    case 'change-ledger':
      return {
        title: 'Change the studio ledger?',
        message: `Change the studio ledger from ${from} to ${to}?`,
        detail: `${to} will receive the ledger's database password (PGPASSWORD, ~/.pgpass or the keychain) and every claim of your studio. Confirm only if you asked for this in Batchroom just now.`,
        confirmLabel: `Use ${to}`,
      };
    case 'ledger-plaintext':
      return {
        title: 'Send the ledger password without encryption?',
        message: `Allow the studio ledger connection without TLS (${from} → ${to})?`,
        detail: 'The database password and every claim then cross the network in clear text, readable by anyone on the path. Confirm only if you asked for this in Batchroom just now.',
        confirmLabel: 'Allow without TLS',
      };
    case 'change-service':
      return {
        title: 'Change the service?',
        message: `Change the service from ${from} to ${to}?`,
        detail: `Your photos, and any API key saved for it, will go to ${to}. Confirm only if you asked for this in Batchroom just now.`,
        confirmLabel: `Use ${to}`,
      };
  }
}

export interface ConsentGate {
  /**
   * Resolves when the user confirmed; throws `cancelled` (nothing changed) otherwise. Same origin: no question.
   * `settled`, asked when this question's turn comes: the change is already where it was going (the same save sent
   * twice — Enter, then the field losing focus to the prompt — while the first was being confirmed): no question.
   */
  require(request: ConsentRequest, settled?: () => boolean): Promise<void>;
}

/**
 * The one gate both hosts use. Without a port (a host that never asks: the CLI's session, tests) every change of
 * origin is refused — the safe default. `announce` tells the renderer a question is open (`consent:requested`).
 */
export function createConsentGate(port: ConfirmOriginChange | undefined, announce: (request: ConsentRequest & { via: 'dialog' | 'code' }) => void): ConsentGate {
  let asking: Promise<unknown> = Promise.resolve();
  return {
    async require(request, settled) {
      if (request.from === request.to) return;
      if (!port) throw refused(request, 'this host cannot ask for a confirmation');
      // One question at a time: a second one waits, so a dialog (or code) never answers a question it did not show.
      const turn = asking.then(async () => {
        // The question before this one has just been answered: let its caller apply the change first (it does so
        // right after its answer, synchronously), then see whether this one is already where it was going.
        if (settled) {
          await new Promise((resolve) => setImmediate(resolve));
          if (settled()) return true;
        }
        announce({ ...request, via: port.via });
        return port.confirm(request);
      });
      asking = turn.catch(() => undefined);
      if ((await turn) !== true) throw refused(request, 'it was not confirmed');
    },
  };
}

function refused(request: ConsentRequest, why: string): AppError {
  const what = request.kind === 'change-service' ? `The service stays ${request.from}` : `The key was not sent to ${request.to}`;
  return new AppError('cancelled', `${what}: ${why}.`, { hint: 'Confirm it in the dialog, or with the code printed in the terminal that started Batchroom.' });
}
