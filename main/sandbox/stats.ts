import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { maskKey } from '../../shared/redact';

// Counters for tests and benchmarks (GET /sandbox/stats). Keys appear only masked (`sk_test_…abcd`), so the stats
// can be logged or saved by a test without leaking a key.

export interface SandboxStats {
  startedAt: string;
  executionsCreated: number;
  /** Masked key → executions created with it. */
  executionsByKey: Record<string, number>;
  executionsByStatus: Record<'queued' | 'running' | 'completed' | 'failed', number>;
  creditsCharged: number;
  creditsRefunded: number;
  /** "METHOD /route/template" → requests received (before faults and auth). */
  requestsByRoute: Record<string, number>;
  /** HTTP status → responses sent. */
  responsesByStatus: Record<string, number>;
  /** Fault kind → times injected. */
  faultsInjected: Record<string, number>;
  resultDownloads: number;
  /**
   * Image inputs of accepted-for-processing execute requests, by how they came: `uploads` as base64 data URLs (the
   * bytes sent in the request), `urls` as http(s) URLs the service fetched itself (chains send the previous result's).
   */
  imageInputs: { uploads: number; urls: number };
  /** Event-loop delay since start or the last POST /sandbox/stats/reset-event-loop: proof that edits never block. */
  eventLoopDelay: { p50Ms: number; p99Ms: number; maxMs: number };
}

/** The histogram records whole timer intervals; the delay is what exceeds the resolution. */
const LOOP_RESOLUTION_MS = 10;

export class StatsRecorder {
  private readonly loopDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  private readonly data: Omit<SandboxStats, 'eventLoopDelay'> = {
    startedAt: new Date().toISOString(),
    executionsCreated: 0,
    executionsByKey: {},
    executionsByStatus: { queued: 0, running: 0, completed: 0, failed: 0 },
    creditsCharged: 0,
    creditsRefunded: 0,
    requestsByRoute: {},
    responsesByStatus: {},
    faultsInjected: {},
    resultDownloads: 0,
    imageInputs: { uploads: 0, urls: 0 },
  };

  request(route: string): void {
    bump(this.data.requestsByRoute, route);
  }

  response(status: number): void {
    bump(this.data.responsesByStatus, String(status));
  }

  fault(kind: string): void {
    bump(this.data.faultsInjected, kind);
  }

  executionCreated(key: string, credits: number): void {
    this.data.executionsCreated += 1;
    bump(this.data.executionsByKey, maskKey(key));
    this.data.creditsCharged += credits;
    this.data.executionsByStatus.queued += 1;
  }

  transition(from: keyof SandboxStats['executionsByStatus'], to: keyof SandboxStats['executionsByStatus']): void {
    this.data.executionsByStatus[from] -= 1;
    this.data.executionsByStatus[to] += 1;
  }

  refunded(credits: number): void {
    this.data.creditsRefunded += credits;
  }

  imageInput(kind: 'uploads' | 'urls'): void {
    this.data.imageInputs[kind] += 1;
  }

  download(): void {
    this.data.resultDownloads += 1;
  }

  snapshot(): SandboxStats {
    const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - LOOP_RESOLUTION_MS) * 100) / 100);
    const delay = this.loopDelay;
    return {
      ...structuredClone(this.data),
      eventLoopDelay: { p50Ms: ms(delay.percentile(50)), p99Ms: ms(delay.percentile(99)), maxMs: ms(delay.max) },
    };
  }

  startMonitoring(): void {
    this.loopDelay.enable();
  }

  resetEventLoop(): void {
    this.loopDelay.reset();
  }

  stopMonitoring(): void {
    this.loopDelay.disable();
  }
}

function bump(record: Record<string, number>, key: string): void {
  record[key] = (record[key] ?? 0) + 1;
}
