import { isUnsetServiceUrl } from '../../../shared/settings/schema';
import { useApp } from '../../store/context';
import { useT } from '../../i18n';
import { SettingText } from './SettingText';

/**
 * The service address. Batchroom has no live address built in (the service's spec names none; each provider gives
 * its own): until one is set the field is empty and says the built-in sandbox is used, rather than showing the
 * reserved `.example` value as if it were a real server.
 */
export function ServiceUrlSetting({ validate, onSave }: { validate: (value: string) => string | null; onSave: (value: string) => Promise<boolean> }) {
  const t = useT('settings');
  const serviceUrl = useApp((s) => s.settings?.serviceUrl ?? '');
  const unset = isUnsetServiceUrl(serviceUrl);
  return (
    <SettingText
      label={t('serviceUrl')}
      mono
      type="url"
      value={unset ? '' : serviceUrl}
      placeholder={t('serviceUrlPlaceholder')}
      validate={validate}
      onSave={onSave}
      hint={unset
        ? t('serviceUrlUnset')
        : undefined}
    />
  );
}
