export { activeFormat, setActiveLanguage, tr } from './active';
export { I18nProvider, languageFor, systemLocales, useFormat, useLanguage, useT, useTranslator } from './I18nProvider';
export { catalogLabels } from './labels';
export { useRichT } from './rich';
