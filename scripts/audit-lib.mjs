// What `npm run audit` decides, kept apart from the registry calls so the tests can feed it answers.

/** Electron supports its latest three stable majors (electronjs.org/docs/latest/tutorial/electron-timelines). */
export const ELECTRON_SUPPORTED_MAJORS = 3;

/** The pinned Electron's standing against the newest release on the registry (never against today's date). */
export function electronSupport(pinned, latest) {
  const major = (v) => Number.parseInt(String(v).replace(/^[^\d]*/, ''), 10);
  const have = major(pinned);
  const newest = major(latest);
  if (!Number.isInteger(have) || !Number.isInteger(newest)) return { ok: false, message: `cannot read Electron versions (pinned ${pinned}, newest ${latest})` };
  const oldestSupported = newest - ELECTRON_SUPPORTED_MAJORS + 1;
  if (have < oldestSupported) {
    return { ok: false, message: `Electron ${pinned} has left the support window: the newest is ${latest}, supported majors are ${oldestSupported}–${newest}. Move to a supported major.` };
  }
  return { ok: true, message: `Electron ${pinned}: supported (newest ${latest}, supported majors ${oldestSupported}–${newest})` };
}

/**
 * The verdict on `npm audit --json` output: advisories by severity, or that the registry's audit endpoint did not
 * answer (some registries and mirrors refuse it: then nothing is known, which is not the same as clean).
 */
export function auditVerdict(exitCode, stdout, stderr = '') {
  let report;
  try {
    report = JSON.parse(stdout || '{}');
  } catch {
    report = null;
  }
  if (!report || report.error || (!report.metadata && !report.vulnerabilities)) {
    const said = String(stderr).split('\n').map((l) => l.replace(/^npm (warn|error) /, '').trim()).filter(Boolean)[0];
    const why = report?.error?.summary || report?.error?.code || said || (exitCode === 0 ? 'no report' : `npm audit exited ${exitCode}`);
    return { status: 'unavailable', message: `the registry's audit endpoint did not answer here (${why}): nothing is known — run \`npm run audit\` where it does` };
  }
  const counts = report.metadata?.vulnerabilities ?? {};
  const serious = (counts.high ?? 0) + (counts.critical ?? 0);
  const total = Object.values(counts).reduce((sum, n) => (typeof n === 'number' ? sum + n : sum), 0) - (counts.total ?? 0);
  if (serious > 0) return { status: 'advisories', message: `${serious} high or critical advisories in production dependencies (${JSON.stringify(counts)})` };
  return { status: 'clean', message: total > 0 ? `no high or critical advisories (${JSON.stringify(counts)})` : 'no advisories in production dependencies' };
}
