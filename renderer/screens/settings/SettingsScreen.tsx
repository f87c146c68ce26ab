import {
  COLLISION_POLICIES, METADATA_POLICIES, RAW_PAIR_MODES, SIDECAR_KINDS, sidecarKindOf,
  type UploadSizePolicy,
} from '../../../shared/engine/model';
import { RadioGroup } from '../../components/RadioGroup';
import { ScreenTitle } from '../../components/ScreenTitle';
import { SelectField } from '../../components/SelectField';
import { MAX_CONCURRENCY, MIN_CONCURRENCY, SETTINGS_FIELDS, THEMES, type SandboxMode, type Theme } from '../../../shared/settings/schema';
import { NAMING_TOKENS, previewNames, templateProblems } from '../../lib/naming';
import { useActions, useApp } from '../../store/context';
import { COLLISION_LABELS } from '../workflows/PhotosPanel';
import { ConsentPrompt } from './ConsentPrompt';
import { KeySection } from './KeySection';
import { NotifySetting } from './NotifySetting';
import { OutputLocation } from './OutputLocation';
import { ResultFileSettings } from './ResultFileSettings';
import { ServiceUrlSetting } from './ServiceUrlSetting';
import { SettingText } from './SettingText';
import { StudioSection } from './StudioSection';
import { UpdateSection } from './UpdateSection';
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
  if (!settings) return <><ScreenTitle>Settings</ScreenTitle><p className="muted" role="status">Loading settings…</p></>;
  const save = (patch: Parameters<typeof updateSettings>[0]) => updateSettings(patch);

  return (
    <div className="settings">
      <ScreenTitle>Settings</ScreenTitle>
      {warnings.map((w) => <p key={w.message} className="callout callout-warning">{w.message}</p>)}
      <ConsentPrompt />
      <KeySection />

      <section className="panel" aria-label="Service">
        <h2 className="panel-title">Service</h2>
        <ServiceUrlSetting validate={(v) => firstIssue('serviceUrl', v)} onSave={(v) => save({ serviceUrl: v })} />
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
        <NotifySetting on={settings.notifyWhenDone} save={save} />
      </section>

      <section className="panel" aria-label="Output">
        <h2 className="panel-title">Output</h2>
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
        <SelectField
          label="When a file with that name exists" id="collision-policy" value={settings.collisionPolicy} options={COLLISION_POLICIES} labels={COLLISION_LABELS}
          onChange={(v) => void save({ collisionPolicy: v })}
        />
        <ResultFileSettings settings={settings} save={save} />
        <SelectField
          label="Photo metadata on results" id="metadata-policy" value={settings.metadataPolicy} options={METADATA_POLICIES} labels={METADATA_LABELS}
          onChange={(v) => void save({ metadataPolicy: v })}
        />
        {/* Choosing replaces the older on/off JSON switch (sidecars), which would otherwise still mean JSON. */}
        <SelectField
          label="Sidecar next to each result" id="sidecar-kind" value={sidecarKindOf(settings)} options={SIDECAR_KINDS} labels={SIDECAR_LABELS}
          onChange={(v) => void save({ sidecar: v, sidecars: false })}
        />
      </section>

      <section className="panel" aria-label="Uploads">
        <h2 className="panel-title">Uploads</h2>
        <div className="field">
          <label className="field-label" htmlFor="upload-size">Upload size</label>
          <select id="upload-size" className="input" value={settings.uploadSizePolicy} onChange={(e) => void save({ uploadSizePolicy: e.target.value as UploadSizePolicy })}>
            <option value="fit">Shrink to what the output needs (faster)</option>
            <option value="original">Send originals as they are</option>
          </select>
        </div>
        <SelectField
          label="RAW+JPEG pairs (same name, same folder)" id="raw-pairs" value={settings.rawPairs} options={RAW_PAIR_MODES} labels={RAW_PAIR_LABELS}
          onChange={(v) => void save({ rawPairs: v })}
        />
        <label className="inline-check"><input type="checkbox" checked={settings.stripMetadata} onChange={(e) => void save({ stripMetadata: e.target.checked })} /> Remove location and camera data before uploading</label>
      </section>

      <StudioSection />

      <UpdateSection save={save} />

      <section className="panel" aria-label="Appearance">
        <h2 className="panel-title">Appearance</h2>
        <RadioGroup label="Theme" className="segmented" value={settings.theme} onChange={(theme) => void save({ theme })} options={THEMES.map((t) => ({ value: t, content: THEME_LABELS[t] }))} />
      </section>
    </div>
  );
}
