// BATCHROOM_START_TRACE=1: where a start's time goes (issue 34 #3: kill -9, then the same command, to its first new
// submit). Each step writes one line on stderr, `batchroom-trace <step> <epoch ms>`, so a bench (or a person with a
// stopwatch) can put the launcher, the worker it relaunches, the bundle, the journal and recovery on one time line.
// bin/start-trace.mjs writes the launcher's steps the same way. Off (one env read per step) unless asked for.

const ENV = 'BATCHROOM_START_TRACE';

/** One trace line: the step's name and when it happened (ms since the epoch, sub-millisecond). */
export function startTraceLine(step: string, atMs: number): string {
  return `batchroom-trace ${step.replace(/\s+/g, '-')} ${atMs.toFixed(1)}\n`;
}

/** Writes `step` now (or at `atMs`) when BATCHROOM_START_TRACE=1; once per step name and process. */
const seen = new Set<string>();
export function traceStart(step: string, atMs = performance.timeOrigin + performance.now()): void {
  if (process.env[ENV] !== '1' || seen.has(step)) return;
  seen.add(step);
  process.stderr.write(startTraceLine(step, atMs));
}

/** The steps of a trace in `text` (other lines ignored), in order, with their times. */
export function parseStartTrace(text: string): { step: string; atMs: number }[] {
  const steps: { step: string; atMs: number }[] = [];
  for (const match of text.matchAll(/^batchroom-trace (\S+) (\d+(?:\.\d+)?)$/gm)) steps.push({ step: match[1]!, atMs: Number(match[2]) });
  return steps;
}
