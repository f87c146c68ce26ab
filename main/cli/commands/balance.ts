import type { Command } from 'commander';
import type { Balance } from '../../../shared/service/model';
import type { ServiceStatus } from '../../../shared/ipc/channels/service';
import { creditKindOf } from '../../../shared/service/credit-kind';
import { credits } from '../format';
import { withSession } from '../session';

// The two balances the service reports are easy to confuse: only the API credits pay for what Batchroom sends; the
// web credits belong to the service's own website and are shown so the numbers match what the account page says.

/** The human `balance` text: each kind of credit with one line saying what it is for. */
export function balanceText(balance: Balance, status: Pick<ServiceStatus, 'mode' | 'keySource' | 'keyMasked'>): string[] {
  const kind = creditKindOf(status);
  const lines = [
    `API credits: ${credits(balance.apiCredits, kind)}`,
    '  What Batchroom spends: each photo sent costs its workflow\'s credits.',
    `Web credits: ${credits(balance.webCredits.total, kind)}`,
    '  For the service\'s website only: Batchroom and the API never spend them.',
  ];
  for (const part of balance.webCredits.breakdown) lines.push(`    ${part.label}: ${credits(part.credits, kind)}`);
  if (status.mode === 'sandbox') {
    lines.push('', 'Built-in sandbox: its balance is kept in the state folder (sandbox-account.db);', 'delete that file to start again with 1,000.');
  }
  return lines;
}

/** `balance`: API credits and the web-credit breakdown. */
export function registerBalanceCommand(program: Command): void {
  program
    .command('balance')
    .description('show the credit balance: API credits (what Batchroom spends) and web credits (the website\'s)')
    .action(async (_flags: unknown, command: Command) =>
      withSession(command, async ({ call, out, status }) => {
        const balance = await call('balance:get', {});
        if (out.json) return out.record(balance);
        const [first, ...rest] = balanceText(balance, status);
        // The first line is the number a script or --quiet wants; the rest explains it.
        out.result(first!);
        for (const line of rest) out.line(line);
      }, { withEngine: false }),
    );
}
