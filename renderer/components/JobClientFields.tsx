import { useEffect, useId } from 'react';
import { useT } from '../i18n';
import { useActions, useApp } from '../store/context';

// The job and client a batch or a hot folder is for (issue 32 #4): free text, suggested from the jobs and clients the
// reports already know, so "Smith wedding" is not typed three ways and split across three rows of the History screen.

export interface JobClient {
  job: string;
  client: string;
}

/** Longest job or client the batch spec accepts (shared/engine/model.ts). */
const MAX_NAME = 120;

export function JobClientFields({ value, onChange }: { value: JobClient; onChange: (patch: Partial<JobClient>) => void }) {
  const t = useT('components');
  const knownJobs = useApp((s) => s.knownJobs);
  const knownClients = useApp((s) => s.knownClients);
  const { loadJobSuggestions } = useActions();
  useEffect(() => { void loadJobSuggestions(); }, [loadJobSuggestions]);
  const id = useId();
  return (
    <div className="field-pair" data-field="job">
      <div className="field">
        <label htmlFor={`${id}-job`} className="field-label">{t('JobClientFields.job')}</label>
        <input
          id={`${id}-job`} className="input" list={`${id}-jobs`} maxLength={MAX_NAME} autoComplete="off" placeholder={t('JobClientFields.optional')}
          value={value.job} onChange={(e) => onChange({ job: e.target.value })}
        />
        <datalist id={`${id}-jobs`}>{knownJobs.map((name) => <option key={name} value={name} />)}</datalist>
      </div>
      <div className="field">
        <label htmlFor={`${id}-client`} className="field-label">{t('JobClientFields.client')}</label>
        <input
          id={`${id}-client`} className="input" list={`${id}-clients`} maxLength={MAX_NAME} autoComplete="off" placeholder={t('JobClientFields.optional')}
          value={value.client} onChange={(e) => onChange({ client: e.target.value })}
        />
        <datalist id={`${id}-clients`}>{knownClients.map((name) => <option key={name} value={name} />)}</datalist>
      </div>
    </div>
  );
}
