import { describe, expect, it } from 'vitest';
import { policyDirs } from '../../../main/core/update/policy-file';

// Found by a review (issue 33 #1): the policy file an admin writes machine-wide is read before one a user can write
// (next to a per-user install, or a folder named in the environment), so a user's file never hides the admin's.

describe('where the update policy file is looked for', () => {
  it('machine-wide first, then next to the app, then BATCHROOM_POLICY_DIR', () => {
    const env = { ProgramData: 'C:\\ProgramData', BATCHROOM_POLICY_DIR: '/tmp/policy' };
    // (Windows paths are joined by this platform's path module here: only the order is looked at.)
    const windows = policyDirs({ platform: 'win32', execPath: 'C:\\Users\\ann\\AppData\\Local\\Programs\\Batchroom\\Batchroom.exe', env });
    expect(windows).toHaveLength(3);
    expect(windows[0]).toMatch(/^C:\\ProgramData.Batchroom$/);
    expect(windows[2]).toBe('/tmp/policy');
    expect(policyDirs({ platform: 'darwin', execPath: '/Applications/Batchroom.app/Contents/MacOS/Batchroom', env }))
      .toEqual(['/Library/Application Support/Batchroom', '/Applications', '/tmp/policy']);
    expect(policyDirs({ platform: 'linux', execPath: '/opt/Batchroom/batchroom', env: {} })).toEqual(['/etc/batchroom', '/opt/Batchroom']);
  });
});

describe('which feed the environment may name', () => {
  it('https anywhere, http only to this computer', async () => {
    const { isTrustedFeedUrl } = await import('../../../main/core/update/config');
    expect(isTrustedFeedUrl('https://mirror.studio.lan/batchroom')).toBe(true);
    expect(isTrustedFeedUrl('http://127.0.0.1:8080/feed')).toBe(true);
    expect(isTrustedFeedUrl('http://mirror.studio.lan/batchroom')).toBe(false);
    expect(isTrustedFeedUrl('file:///etc/passwd')).toBe(false);
    expect(isTrustedFeedUrl('not a url')).toBe(false);
  });
});
