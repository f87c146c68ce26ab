import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { describeConsent, type ConfirmOriginChange, type ConsentAnswer, type ConsentRequest } from '../core/app/origin-consent';

// The browser host has no dialog of its own: the page is the renderer, and the renderer is not trusted. So the
// confirmation goes through the one channel a web page cannot read — the terminal that started `batchroom ui`. The
// code printed there is typed into the page and passed back (consent:answer); the page never learns the right one.

export interface CodeConsentOptions {
  /** Writes to the terminal that started the host (stderr). */
  print(text: string): void;
  /** How long a code is good for (2 min). */
  ttlMs?: number;
  /** Wrong tries before the code is void and the request refused (3). */
  maxTries?: number;
  /** Codes issued per minute at most (5): a renderer that keeps asking cannot grind through them. */
  perMinute?: number;
  now?: () => number;
}

const DIGITS = 8; // 10^8 codes × 3 tries × 5 codes a minute: about one chance in 4,600 a day of guessing one

interface Pending {
  digest: Buffer;
  expiresAt: number;
  triesLeft: number;
  settle(ok: boolean): void;
}

export function createCodeConsent(options: CodeConsentOptions): ConfirmOriginChange {
  const ttlMs = options.ttlMs ?? 120_000;
  const maxTries = options.maxTries ?? 3;
  const perMinute = options.perMinute ?? 5;
  const now = options.now ?? Date.now;
  const issued: number[] = [];
  let pending: Pending | null = null;

  const end = (ok: boolean) => {
    const open = pending;
    pending = null;
    open?.settle(ok);
  };

  return {
    via: 'code',
    confirm(request: ConsentRequest) {
      end(false); // one code at a time: a new question voids the old one
      const at = now();
      while (issued.length > 0 && issued[0]! <= at - 60_000) issued.shift();
      if (issued.length >= perMinute) {
        options.print('batchroom: a confirmation was asked for too often; refused. Try again in a minute.\n');
        return Promise.resolve(false);
      }
      issued.push(at);
      const code = String(randomInt(0, 10 ** DIGITS)).padStart(DIGITS, '0');
      const text = describeConsent(request);
      options.print(`\nbatchroom: ${text.message}\n  ${text.detail}\n  To confirm, type this code in the page: ${code.slice(0, 4)} ${code.slice(4)}  (good for ${Math.round(ttlMs / 1000)} s, once)\n\n`);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          if (pending === entry) end(false);
        }, ttlMs);
        timer.unref?.();
        const entry: Pending = {
          digest: digestOf(code),
          expiresAt: at + ttlMs,
          triesLeft: maxTries,
          settle: (ok) => {
            clearTimeout(timer);
            resolve(ok);
          },
        };
        pending = entry;
      });
    },
    answer(code: string): ConsentAnswer {
      const open = pending;
      if (!open) return { accepted: false, reason: 'none' };
      if (now() >= open.expiresAt) {
        end(false);
        return { accepted: false, reason: 'expired' };
      }
      // Digests of equal length, compared in constant time: the answer's timing says nothing about the code.
      if (timingSafeEqual(digestOf(code.replace(/[\s-]/g, '')), open.digest)) {
        end(true); // single use: it is gone the moment it is accepted
        return { accepted: true };
      }
      open.triesLeft -= 1;
      if (open.triesLeft <= 0) {
        end(false);
        options.print('batchroom: too many wrong codes; the confirmation was refused.\n');
        return { accepted: false, reason: 'invalidated', triesLeft: 0 };
      }
      return { accepted: false, reason: 'wrong', triesLeft: open.triesLeft };
    },
    cancel: () => end(false),
  };
}

function digestOf(code: string): Buffer {
  return createHash('sha256').update(code).digest();
}
