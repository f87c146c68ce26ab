import {
  COLLISION_POLICIES, METADATA_POLICIES, RAW_PAIR_MODES, SIDECAR_KINDS, sidecarKindOf,
  type UploadSizePolicy,
} from '../../../shared/engine/model';
import { RadioGroup } from '../../components/RadioGroup';
import { ScreenTitle } from '../../components/ScreenTitle';
import { SelectField } from '../../components/SelectField';
import { MAX_CONCURRENCY, MIN_CONCURRENCY, SETTINGS_FIELDS, THEMES, type SandboxMode, type Theme } from '../../../shared/settings/schema';
import { LANGUAGE_NAMES, LANGUAGES, resolveLanguage, type LanguageSetting } from '../../../shared/i18n';
import { catalogLabels, systemLocales, tr, useT } from '../../i18n';
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

const SANDBOX_LABELS = catalogLabels<'settings', SandboxMode>('settings', { auto: 'sandbox.auto', always: 'sandbox.always', never: 'sandbox.never' });
const THEME_LABELS = catalogLabels<'settings', Theme>('settings', { system: 'theme.system', light: 'theme.light', dark: 'theme.dark' });

const firstIssue = (key: keyof typeof SETTINGS_FIELDS, value: unknown): string | null => {
  const parsed = SETTINGS_FIELDS[key].safeParse(value);
  return parsed.success ? null : parsed.error.issues[0]?.message ?? tr('settings', 'notValid');
};

function NamingPreview({ template }: { template: string }) {
  const t = useT('settings');
  const problems = templateProblems(template);
  const [first, second] = previewNames(template, ['IMG_2041.jpg', 'IMG_2042.jpg'], { workflow: 'color-grade', total: 240 });
  return (
    <div className="naming-live" aria-live="polite">
      <p className="muted">{t('preview')} <span className="mono" data-testid="naming-preview">{first}</span>, <span className="mono">{second}</span></p>
      {problems.map((p) => <p key={p} className="field-error">{p}</p>)}
    </div>
  );
}

/**
 * The app's language: the OS's (named, so the user sees what "system" means here) or one of the shipped ones, each in
 * its own words. The pseudo-locale is not offered; set in the settings file, it shows as its own entry.
 */
function LanguagePicker({ value, onChange }: { value: LanguageSetting; onChange: (value: LanguageSetting) => void }) {
  const t = useT('settings');
  const system = LANGUAGE_NAMES[resolveLanguage('system', systemLocales())];
  const options: LanguageSetting[] = ['system', ...LANGUAGES, ...(value === 'en-XA' ? ['en-XA' as const] : [])];
  return (
    <div className="field">
      <label className="field-label" htmlFor="app-language">{t('language')}</label>
      <select id="app-language" className="input" value={value} onChange={(e) => onChange(e.target.value as LanguageSetting)}>
        {options.map((o) => (
          <option key={o} value={o} lang={o === 'system' ? undefined : o}>{o === 'system' ? t('languageSystem', { language: system }) : LANGUAGE_NAMES[o]}</option>
        ))}
      </select>
      <p className="field-hint">{t('languageHint')}</p>
    </div>
  );
}

export function SettingsScreen() {
  const t = useT('settings');
  const tc = useT('common');
  const settings = useApp((s) => s.settings);
  const warnings = useApp((s) => s.settingsWarnings);
  const { updateSettings } = useActions();
  if (!settings) return <><ScreenTitle>{tc('view.settings')}</ScreenTitle><p className="muted" role="status">{t('loading')}</p></>;
  const save = (patch: Parameters<typeof updateSettings>[0]) => updateSettings(patch);

  return (
    <div className="settings">
      <ScreenTitle>{tc('view.settings')}</ScreenTitle>
      {warnings.map((w) => <p key={w.message} className="callout callout-warning">{w.message}</p>)}
      <ConsentPrompt />
      <KeySection />

      <section className="panel" aria-label={t('service')}>
        <h2 className="panel-title">{t('service')}</h2>
        <ServiceUrlSetting validate={(v) => firstIssue('serviceUrl', v)} onSave={(v) => save({ serviceUrl: v })} />
        <div className="field">
          <label className="field-label" htmlFor="sandbox-mode">{t('sandbox')}</label>
          <select id="sandbox-mode" className="input" value={settings.sandboxMode} onChange={(e) => void save({ sandboxMode: e.target.value as SandboxMode })}>
            {(Object.keys(SANDBOX_LABELS) as SandboxMode[]).map((m) => <option key={m} value={m}>{SANDBOX_LABELS[m]}</option>)}
          </select>
        </div>
        <SettingText
          label={t('concurrency')}
          type="number"
          value={String(settings.concurrency)}
          validate={(v) => firstIssue('concurrency', Number(v)) && t('concurrencyProblem', { min: MIN_CONCURRENCY, max: MAX_CONCURRENCY })}
          onSave={(v) => save({ concurrency: Number(v) })}
        />
        <SettingText
          label={t('lowBalance')}
          type="number"
          value={String(settings.lowBalanceWarning)}
          validate={(v) => firstIssue('lowBalanceWarning', Number(v)) && t('lowBalanceProblem')}
          onSave={(v) => save({ lowBalanceWarning: Number(v) })}
        />
        <NotifySetting on={settings.notifyWhenDone} save={save} />
      </section>

      <section className="panel" aria-label={t('output')}>
        <h2 className="panel-title">{t('output')}</h2>
        <OutputLocation folder={settings.outputFolder} onSave={(outputFolder) => save({ outputFolder })} />
        <SettingText
          label={t('namingTemplate')}
          mono
          value={settings.namingTemplate}
          validate={(v) => templateProblems(v).find((p) => !p.startsWith('Without')) ?? null}
          onSave={(v) => save({ namingTemplate: v })}
          preview={(v) => <NamingPreview template={v} />}
          hint={<>{t('tokens')} {NAMING_TOKENS.map((token) => <code key={token}>{token}</code>)}</>}
        />
        <SelectField
          label={t('collision')} id="collision-policy" value={settings.collisionPolicy} options={COLLISION_POLICIES} labels={COLLISION_LABELS}
          onChange={(v) => void save({ collisionPolicy: v })}
        />
        <ResultFileSettings settings={settings} save={save} />
        <SelectField
          label={t('metadata')} id="metadata-policy" value={settings.metadataPolicy} options={METADATA_POLICIES} labels={METADATA_LABELS}
          onChange={(v) => void save({ metadataPolicy: v })}
        />
        {/* Choosing replaces the older on/off JSON switch (sidecars), which would otherwise still mean JSON. */}
        <SelectField
          label={t('sidecar')} id="sidecar-kind" value={sidecarKindOf(settings)} options={SIDECAR_KINDS} labels={SIDECAR_LABELS}
          onChange={(v) => void save({ sidecar: v, sidecars: false })}
        />
      </section>

      <section className="panel" aria-label={t('uploads')}>
        <h2 className="panel-title">{t('uploads')}</h2>
        <div className="field">
          <label className="field-label" htmlFor="upload-size">{t('uploadSize')}</label>
          <select id="upload-size" className="input" value={settings.uploadSizePolicy} onChange={(e) => void save({ uploadSizePolicy: e.target.value as UploadSizePolicy })}>
            <option value="fit">{t('uploadFit')}</option>
            <option value="original">{t('uploadOriginal')}</option>
          </select>
        </div>
        <SelectField
          label={t('rawPairs')} id="raw-pairs" value={settings.rawPairs} options={RAW_PAIR_MODES} labels={RAW_PAIR_LABELS}
          onChange={(v) => void save({ rawPairs: v })}
        />
        <label className="inline-check"><input type="checkbox" checked={settings.stripMetadata} onChange={(e) => void save({ stripMetadata: e.target.checked })} /> {t('stripMetadata')}</label>
      </section>

      <StudioSection />

      <UpdateSection save={save} />

      <section className="panel" aria-label={t('appearance')}>
        <h2 className="panel-title">{t('appearance')}</h2>
        <RadioGroup label={t('theme')} className="segmented" value={settings.theme} onChange={(theme) => void save({ theme })} options={THEMES.map((theme) => ({ value: theme, content: THEME_LABELS[theme] }))} />
        <LanguagePicker value={settings.language} onChange={(language) => void save({ language })} />
      </section>
    </div>
  );
}
