export { activeFormat, setActiveLanguage, tr } from './active';
export { I18nProvider, languageFor, systemLocales, useFormat, useLanguage, useT } from './I18nProvider';
