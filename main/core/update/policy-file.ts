import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UPDATE_POLICY_FILE, UpdatePolicyFileSchema, type UpdatePolicyFile } from '../../../shared/update/model';

/** What the admin's policy file says, where it was found, or why it could not be used. */
export interface PolicyRead {
  policy: UpdatePolicyFile | null;
  path: string | null;
  /** Set when a policy file exists but cannot be read or is not valid: updates then stay off (fail closed). */
  problem: string | null;
}

/**
 * Where an admin may drop `batchroom-policy.json`, the machine-wide folder first: MDM and Group Policy tools write
 * there (ProgramData, /Library/Application Support, /etc) and a user cannot, so a user's own file never hides the
 * admin's. Then next to the app (on Windows a per-user install folder, which an update replaces: prefer ProgramData),
 * then `BATCHROOM_POLICY_DIR` (tests, scripted deployments).
 */
export function policyDirs(input: { execPath: string; platform: NodeJS.Platform; env: NodeJS.ProcessEnv }): string[] {
  const dirs: string[] = [];
  if (input.platform === 'darwin') {
    dirs.push('/Library/Application Support/Batchroom');
    const bundle = /^(.*\.app)\/Contents\/MacOS\/[^/]+$/.exec(input.execPath)?.[1];
    if (bundle) dirs.push(dirname(bundle));
  } else if (input.platform === 'win32') {
    if (input.env.ProgramData) dirs.push(join(input.env.ProgramData, 'Batchroom'));
    dirs.push(dirname(input.execPath));
  } else {
    dirs.push('/etc/batchroom', dirname(input.execPath));
  }
  if (input.env.BATCHROOM_POLICY_DIR) dirs.push(input.env.BATCHROOM_POLICY_DIR);
  return dirs;
}

/** The first policy file found in `dirs`; read at every check, so an admin's change applies without a restart. */
export function readUpdatePolicy(dirs: readonly string[]): PolicyRead {
  for (const dir of dirs) {
    const path = join(dir, UPDATE_POLICY_FILE);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') continue;
      return { policy: null, path, problem: `The update policy file ${path} cannot be read (${(error as Error).message}); updates stay off until it can.` };
    }
    try {
      const parsed = UpdatePolicyFileSchema.safeParse(JSON.parse(text));
      if (parsed.success) return { policy: parsed.data, path, problem: null };
      const first = parsed.error.issues[0];
      return { policy: null, path, problem: `The update policy file ${path} is not valid (${first?.path.join('.') || 'file'}: ${first?.message}); updates stay off until it is fixed.` };
    } catch (error) {
      return { policy: null, path, problem: `The update policy file ${path} is not valid JSON (${(error as Error).message}); updates stay off until it is fixed.` };
    }
  }
  return { policy: null, path: null, problem: null };
}
