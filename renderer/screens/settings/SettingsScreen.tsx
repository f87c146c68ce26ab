import {
  COLLISION_POLICIES, METADATA_POLICIES, RAW_PAIR_MODES, SIDECAR_KINDS, sidecarKindOf, type CollisionPolicy, type MetadataPolicy, type RawPairs, type SidecarKind,
  type UploadSizePolicy,
} from '../../../shared/engine/model';
import { MAX_CONCURRENCY, MIN_CONCURRENCY, SETTINGS_FIELDS, THEMES, type SandboxMode, type Theme } from '../../../shared/settings/schema';
import { NAMING_TOKENS, previewNames, templateProblems } from '../../lib/naming';
import { useActions, useApp } from '../../store/context';
import { COLLISION_LABELS } from '../workflows/PhotosPanel';
import { KeySection } from './KeySection';
import { OutputLocation } from './OutputLocation';
import { ResultFileSettings } from './ResultFileSettings';
import { SettingText } from './SettingText';
import { METADATA_LABELS, RAW_PAIR_LABELS, SIDECAR_LABELS } from '../../lib/metadata-labels';

const SANDBOX_LABELS: Record<SandboxMode, string> = {
  auto: 'Automatic: sandbox until a key is set',
  always: 'Always use the sandbox (test credits)',
  never: 'Never: live service only',
};
const THEME_LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

const firstIssue = (key: keyof typeof SETTINGS_FIELDS, value: unknown): string | null => {
  const parsed = SETTINGS_FIELDS[key].safeParse(value);
  return parsed.success ? null : parsed.error.issues[0]?.message ?? 'not valid';
};

function NamingPreview({ template }: { template: string }) {
  const problems = templateProblems(template);
  const [first, second] = previewNames(template, ['IMG_2041.jpg', 'IMG_2042.jpg'], { workflow: 'color-grade', total: 240 });
  return (
    <div className="naming-live" aria-live="polite">
      <p className="muted">Preview: <span className="mono" data-testid="naming-preview">{first}</span>, <span className="mono">{second}</span></p>
      {problems.map((p) => <p key={p} className="field-error">{p}</p>)}
    </div>
  );
}

export function SettingsScreen() {
  const settings = useApp((s) => s.settings);
  const warnings = useApp((s) => s.settingsWarnings);
  const { updateSettings } = useActions();
  if (!settings) return <p className="muted" role="status">Loading settings…</p>;
  const save = (patch: Parameters<typeof updateSettings>[0]) => updateSettings(patch);

  return (
    <div className="settings">
      <h2>Settings</h2>
      {warnings.map((w) => <p key={w.message} className="callout callout-warning">{w.message}</p>)}
      <KeySection />

      <section className="panel" aria-label="Service">
        <h3 className="panel-title">Service</h3>
        <SettingText label="Service URL" mono type="url" value={settings.serviceUrl} validate={(v) => firstIssue('serviceUrl', v)} onSave={(v) => save({ serviceUrl: v })} />
        <div className="field">
          <label className="field-label" htmlFor="sandbox-mode">Sandbox</label>
          <select id="sandbox-mode" className="input" value={settings.sandboxMode} onChange={(e) => void save({ sandboxMode: e.target.value as SandboxMode })}>
            {(Object.keys(SANDBOX_LABELS) as SandboxMode[]).map((m) => <option key={m} value={m}>{SANDBOX_LABELS[m]}</option>)}
          </select>
        </div>
        <SettingText
          label="Photos in flight at once"
          type="number"
          value={String(settings.concurrency)}
          validate={(v) => firstIssue('concurrency', Number(v)) && `Choose a whole number from ${MIN_CONCURRENCY} to ${MAX_CONCURRENCY}.`}
          onSave={(v) => save({ concurrency: Number(v) })}
        />
        <SettingText
          label="Warn when credits fall below"
          type="number"
          value={String(settings.lowBalanceWarning)}
          validate={(v) => firstIssue('lowBalanceWarning', Number(v)) && 'Enter 0 (never warn) or a positive number.'}
          onSave={(v) => save({ lowBalanceWarning: Number(v) })}
        />
      </section>

      <section className="panel" aria-label="Output">
        <h3 className="panel-title">Output</h3>
        <OutputLocation folder={settings.outputFolder} onSave={(outputFolder) => save({ outputFolder })} />
        <SettingText
          label="Naming template"
          mono
          value={settings.namingTemplate}
          validate={(v) => templateProblems(v).find((p) => !p.startsWith('Without')) ?? null}
          onSave={(v) => save({ namingTemplate: v })}
          preview={(v) => <NamingPreview template={v} />}
          hint={<>Tokens: {NAMING_TOKENS.map((t) => <code key={t}>{t}</code>)}</>}
        />
        <div className="field">
          <label className="field-label" htmlFor="collision-policy">When a file with that name exists</label>
          <select id="collision-policy" className="input" value={settings.collisionPolicy} onChange={(e) => void save({ collisionPolicy: e.target.value as CollisionPolicy })}>
            {COLLISION_POLICIES.map((p) => <option key={p} value={p}>{COLLISION_LABELS[p]}</option>)}
          </select>
        </div>
        <ResultFileSettings settings={settings} save={save} />
        <div className="field">
          <label className="field-label" htmlFor="metadata-policy">Photo metadata on results</label>
          <select id="metadata-policy" className="input" value={settings.metadataPolicy} onChange={(e) => void save({ metadataPolicy: e.target.value as MetadataPolicy })}>
            {METADATA_POLICIES.map((p) => <option key={p} value={p}>{METADATA_LABELS[p]}</option>)}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="sidecar-kind">Sidecar next to each result</label>
          {/* Choosing replaces the older on/off JSON switch (sidecars), which would otherwise still mean JSON. */}
          <select id="sidecar-kind" className="input" value={sidecarKindOf(settings)} onChange={(e) => void save({ sidecar: e.target.value as SidecarKind, sidecars: false })}>
            {SIDECAR_KINDS.map((k) => <option key={k} value={k}>{SIDECAR_LABELS[k]}</option>)}
          </select>
        </div>
      </section>

      <section className="panel" aria-label="Uploads">
        <h3 className="panel-title">Uploads</h3>
        <div className="field">
          <label className="field-label" htmlFor="upload-size">Upload size</label>
          <select id="upload-size" className="input" value={settings.uploadSizePolicy} onChange={(e) => void save({ uploadSizePolicy: e.target.value as UploadSizePolicy })}>
            <option value="fit">Shrink to what the output needs (faster)</option>
            <option value="original">Send originals as they are</option>
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="raw-pairs">RAW+JPEG pairs (same name, same folder)</label>
          <select id="raw-pairs" className="input" value={settings.rawPairs} onChange={(e) => void save({ rawPairs: e.target.value as RawPairs })}>
            {RAW_PAIR_MODES.map((m) => <option key={m} value={m}>{RAW_PAIR_LABELS[m]}</option>)}
          </select>
        </div>
        <label className="inline-check"><input type="checkbox" checked={settings.stripMetadata} onChange={(e) => void save({ stripMetadata: e.target.checked })} /> Remove location and camera data before uploading</label>
      </section>

      <section className="panel" aria-label="Appearance">
        <h3 className="panel-title">Appearance</h3>
        <div className="segmented" role="radiogroup" aria-label="Theme">
          {THEMES.map((t) => (
            <button key={t} type="button" role="radio" aria-checked={settings.theme === t} onClick={() => void save({ theme: t })}>{THEME_LABELS[t]}</button>
          ))}
        </div>
      </section>
    </div>
  );
}
