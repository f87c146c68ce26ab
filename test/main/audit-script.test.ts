import { describe, expect, it } from 'vitest';
// @ts-expect-error — a plain .mjs build script without types
import { auditVerdict, electronSupport } from '../../scripts/audit-lib.mjs';

// `npm run audit` (scripts/audit.mjs) decides from the registry's answers; these are its decisions on given answers
// (the script itself needs the registry, so it is not part of npm test).

describe('npm run audit', () => {
  it('says when the pinned Electron has left the support window (latest three majors), from the registry, not the date', () => {
    expect(electronSupport('45.5.0', '45.5.0')).toMatchObject({ ok: true });
    expect(electronSupport('45.5.0', '47.1.0')).toMatchObject({ ok: true });
    expect(electronSupport('45.5.0', '48.0.0')).toMatchObject({ ok: false, message: expect.stringMatching(/left the support window.*46–48/) });
    expect(electronSupport('^45.5.0', 'garbage').ok).toBe(false);
  });

  it('tells an unavailable audit endpoint from a clean report, and high/critical advisories from minor ones', () => {
    expect(auditVerdict(1, '{"error":{"code":"E405","summary":"audit endpoint returned an error"}}').status).toBe('unavailable');
    expect(auditVerdict(1, '', 'npm error audit endpoint returned an error').message).toMatch(/audit endpoint returned an error/);
    expect(auditVerdict(0, JSON.stringify({ metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, total: 0 } } })).status).toBe('clean');
    expect(auditVerdict(1, JSON.stringify({ metadata: { vulnerabilities: { info: 0, low: 2, moderate: 1, high: 0, critical: 0, total: 3 } } })).status).toBe('clean');
    expect(auditVerdict(1, JSON.stringify({ metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 1, critical: 1, total: 2 } } }))).toMatchObject({ status: 'advisories', message: expect.stringMatching(/^2 high or critical/) });
  });
});
