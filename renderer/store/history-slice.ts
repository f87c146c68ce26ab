import type { JobReport } from '../../shared/reports/job-report';
import { asUiError, toUiError, unwrap } from '../lib/errors';
import { periodRange } from '../lib/report-period';
import type { HistorySlice } from './history-state';
import type { SliceCreator } from './state';

/** Names in the order first seen, each once, blanks left out. */
function merged(known: string[], more: (string | null | undefined)[]): string[] {
  const fresh = more.map((n) => n?.trim() ?? '').filter((n) => n !== '' && !known.includes(n));
  return fresh.length === 0 ? known : [...known, ...new Set(fresh)];
}

const namesIn = (report: JobReport) => report.groups.map((g) => g.key);

export const createHistorySlice: SliceCreator<HistorySlice> = (set, get, bridge) => {
  // The grouping or period may change while a report loads: only the newest request's answer is shown.
  let latest = 0;
  let suggestions: Promise<void> | null = null;
  const query = () => {
    const { historyBy: by, historyPeriod } = get();
    const range = periodRange(historyPeriod, new Date());
    return 'problem' in range ? range : { by, ...range };
  };
  /** A loaded report also tells the form which jobs or clients exist. */
  const learnFrom = (report: JobReport) =>
    set((s) => (report.by === 'job' ? { knownJobs: merged(s.knownJobs, namesIn(report)) } : { knownClients: merged(s.knownClients, namesIn(report)) }));

  return {
    historyBy: 'job',
    historyPeriod: { kind: 'this-month' },
    historyReport: null,
    historyLoading: false,
    historyError: null,
    knownJobs: [],
    knownClients: [],

    setHistoryBy(historyBy) {
      set({ historyBy });
      void get().loadHistory();
    },
    setHistoryPeriod(historyPeriod) {
      set({ historyPeriod });
      void get().loadHistory();
    },

    async loadHistory() {
      const request = ++latest;
      const q = query();
      if ('problem' in q) {
        set({ historyError: toUiError('bad_request', q.problem), historyLoading: false });
        return;
      }
      set({ historyLoading: true });
      try {
        const report = await unwrap(bridge.reports.byGroup(q));
        if (request !== latest) return;
        set({ historyReport: report, historyError: null });
        learnFrom(report);
      } catch (error) {
        if (request === latest) set({ historyError: asUiError(error) });
      } finally {
        if (request === latest) set({ historyLoading: false });
      }
    },

    async historyCsv() {
      const q = query();
      try {
        if (!('problem' in q)) return await unwrap(bridge.reports.csv(q));
        get().notifyError(toUiError('bad_request', q.problem));
      } catch (error) {
        get().notifyError(asUiError(error));
      }
      return null;
    },

    loadJobSuggestions() {
      // Every job and client ever named, once per session: later ones come from noteJobClient and loaded reports.
      suggestions ??= Promise.all((['job', 'client'] as const).map(async (by) => {
        const answer = await bridge.reports.byGroup({ by });
        if (answer.ok) learnFrom(answer.data);
      })).then(() => undefined);
      return suggestions;
    },

    noteJobClient: ({ job, client }) => set((s) => ({ knownJobs: merged(s.knownJobs, [job]), knownClients: merged(s.knownClients, [client]) })),
  };
};
