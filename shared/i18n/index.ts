// The i18n entry point for every runtime (renderer, Electron glue, tests): docs/i18n.md.
export { CATALOGS, EN, NAMESPACES, type KeyOf, type Messages, type Namespace } from './catalogs';
export { createFormatters, type Formatters } from './format';
export {
  DEFAULT_LANGUAGE, intlLocaleOf, LANGUAGE_NAMES, LANGUAGES, LanguageSettingSchema, matchLanguage, PSEUDO_LANGUAGE, resolveLanguage,
  type Language, type LanguageSetting, type ShippedLanguage,
} from './languages';
export { pseudoMessage, PSEUDO_EXPANSION } from './pseudo';
export { translatorFor, type MessageValues, type TFunction, type Translator } from './translator';
