import { BELL, shouldRingBell } from '../../shared/notify/bell';
import type { CliSession } from './session';

/**
 * The end of `run`/`resume` for someone who looked away: a terminal bell (most terminals flash or badge the tab),
 * only at a terminal, without --quiet or --json, while the setting notifyWhenDone is on. Never fails the command.
 */
export async function ringBellAtEnd(session: Pick<CliSession, 'call' | 'out'>, stdout: { isTTY?: boolean; write(text: string): unknown } = process.stdout): Promise<void> {
  const enabled = await session.call('settings:get', {}).then(({ settings }) => settings.notifyWhenDone, () => true);
  if (shouldRingBell({ isTTY: stdout.isTTY, quiet: session.out.quiet, json: session.out.json, enabled })) stdout.write(BELL);
}
