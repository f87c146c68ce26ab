import type { Command } from 'commander';
import type { StudioStatus } from '../../../shared/studio/model';
import { EXIT } from '../exit-codes';
import { UsageError } from '../errors';
import { createOutput, globalOptions, type Output } from '../session';
import { redactedCommanderOutput } from '../argv-secrets';

// `batchroom studio status --ledger-url postgres://user@host/db`: who is working on the shared folders (instances,
// last heartbeat, claims in flight, throughput) and the shared budgets. Reads only; joins nothing.

export function registerStudioCommand(program: Command): void {
  const studio = program.command('studio').description('several machines on one hot folder through a shared PostgreSQL ledger');
  studio
    .command('status')
    .description('instances, claims in flight, throughput and shared budgets of a studio ledger')
    .requiredOption('--ledger-url <url>', 'postgres://user@host/db (password from PGPASSWORD, ~/.pgpass or the keychain)')
    .action(async (flags: { ledgerUrl: string }, command: Command) => {
      const out = createOutput(globalOptions(command));
      const { readStudioStatus } = await import('../../core/studio/inspect');
      const { keychainLoader } = await import('../../core/studio/keychain');
      if (!flags.ledgerUrl.trim()) throw new UsageError('--ledger-url is empty.');
      const status = await readStudioStatus(flags.ledgerUrl, { env: process.env, keytar: keychainLoader() });
      if (out.json) out.record(status);
      else printStatus(out, status);
      process.exitCode = EXIT.ok;
    });
  studio.commands.forEach((c) => c.exitOverride().configureOutput(redactedCommanderOutput));
}

const ago = (iso: string) => {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return seconds < 120 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`;
};

function printStatus(out: Output, status: StudioStatus): void {
  out.result(`Studio ledger ${status.ledger} (schema ${status.schemaVersion})`);
  if (status.schemaVersion === 0) {
    out.result('No instance has joined yet: start one with batchroom watch <dir> … --ledger-url <url>.');
    return;
  }
  out.result('');
  out.result('Instances:');
  for (const i of status.instances) {
    const state = i.stopped ? 'stopped' : i.alive ? 'alive' : 'lease expired';
    out.result(`  ${i.host} pid ${i.pid} (v${i.version}) ${state}, last heartbeat ${ago(i.heartbeatAt)}: ${i.inFlight} in flight, ` +
      `${i.processed} processed, ${i.failed} failed, ${i.creditsSpent} credits, ${i.perMinute}/min`);
  }
  out.result('');
  out.result(`Claims in flight: ${status.claimsInFlight.length}`);
  const hosts = new Map(status.instances.map((i) => [i.id, i.host]));
  for (const c of status.claimsInFlight.slice(0, 20)) {
    out.result(`  ${c.folderKey}/${c.relPath}  ${c.state}${c.executionId ? ` (${c.executionId})` : ''} on ${c.owner ? hosts.get(c.owner) ?? c.owner : '—'} since ${ago(c.since)}`);
  }
  if (status.claimsInFlight.length > 20) out.result(`  … and ${status.claimsInFlight.length - 20} more (--json lists them all)`);
  out.result('');
  out.result('Folders:');
  for (const f of status.folders) {
    const budget = f.budget === null ? 'no budget' : `${f.creditsCommitted} of ${f.budget} credits`;
    out.result(`  ${f.folderKey}: ${f.processed} processed, ${f.failed} failed, ${budget}`);
  }
}
