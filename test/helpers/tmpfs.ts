import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Whether this process may mount a tmpfs (root on Linux, as CI runs): the real-disk tests (a full disk, a read-only
 * remount) need it and are skipped with a message elsewhere. Probed once with a 64 KB mount, unmounted at once.
 */
export function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = join(tmpdir(), `batchroom-mount-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    execFileSync('mkdir', ['-p', probe]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    try { execFileSync('rmdir', [probe], { stdio: 'ignore' }); } catch { /* not there */ }
  }
}
