import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { createFormatters, resolveLanguage, type Formatters, type Language, type LanguageSetting, type Namespace, type TFunction, type Translator } from '../../shared/i18n';
import { activeFormat, activeTranslator, setActiveLanguage } from './active';

// English until a provider says otherwise: a component rendered on its own (a unit test) reads English.
const I18nContext = createContext<{ translator: Translator; format: Formatters } | null>(null);

/** The OS's preferred languages as the page sees them (Electron passes the OS's; a browser its own list). */
export function systemLocales(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language].filter(Boolean);
}

/** The language the app shows for a setting (undefined: settings not loaded yet, follow the OS). */
export function languageFor(setting: LanguageSetting | undefined, locales: readonly string[] = systemLocales()): Language {
  return resolveLanguage(setting, locales);
}

/**
 * Gives its subtree one language. Keyed by language where it is used (App), so a change remounts the tree and text
 * made outside React (renderer/lib, the store) follows too.
 */
export function I18nProvider({ language, children }: { language: Language; children: ReactNode }) {
  setActiveLanguage(language);
  const value = useMemo(() => {
    const translator = activeTranslator();
    return { translator, format: translator.language === language ? activeFormat() : createFormatters(translator) };
  }, [language]);
  useEffect(() => {
    // Screen readers pick their voice, and the browser its hyphenation and CJK line breaking, from lang.
    document.documentElement.lang = language === 'en-XA' ? 'en' : language;
  }, [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

function useI18n() {
  return useContext(I18nContext) ?? { translator: activeTranslator(), format: activeFormat() };
}

/** The page's translator (for helpers that need more than `t`). */
export function useTranslator(): Translator {
  return useI18n().translator;
}

/** `t(key, values)` for one namespace's catalog (shared/i18n/locales/<lang>/<namespace>.json). */
export function useT<N extends Namespace>(namespace: N): TFunction<N> {
  const { translator } = useI18n();
  return useMemo(() => translator.ns(namespace), [translator, namespace]);
}

/** Numbers, credits, dates, sizes and durations in the page's locale. */
export function useFormat(): Formatters {
  return useI18n().format;
}

/** The language shown (for a picker, or `lang` attributes). */
export function useLanguage(): Language {
  return useI18n().translator.language;
}
