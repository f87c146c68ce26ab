import { z } from 'zod';

/**
 * The languages Batchroom ships, as BCP 47 tags (the catalog folder names under shared/i18n/locales/). Simplified
 * Chinese is `zh-CN`, not `zh`: a Traditional Chinese reader (zh-TW, zh-HK) is better served by English than by
 * the wrong script, so only Simplified tags match it (matchLanguage).
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'zh-CN'] as const;
export type ShippedLanguage = (typeof LANGUAGES)[number];

/**
 * The pseudo-locale: English accented and 40 % longer (shared/i18n/pseudo.ts), for finding hard-coded and clipped
 * text. Selectable in the settings file and by tests, not offered in the Settings picker.
 */
export const PSEUDO_LANGUAGE = 'en-XA';
export type Language = ShippedLanguage | typeof PSEUDO_LANGUAGE;

export const DEFAULT_LANGUAGE: ShippedLanguage = 'en';

/** The `language` setting: follow the OS (`system`, the default) or one language. */
export const LanguageSettingSchema = z.enum(['system', ...LANGUAGES, PSEUDO_LANGUAGE]);
export type LanguageSetting = z.infer<typeof LanguageSettingSchema>;

/** Each language's own name, as its speakers write it (the picker lists languages in their own words). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  ja: '日本語',
  'zh-CN': '简体中文',
  'en-XA': 'Pseudo (Ȧƈƈḗƞŧḗḓ)',
};

/** The Intl locale numbers and dates are formatted with (the pseudo-locale formats as English). */
export function intlLocaleOf(language: Language): string {
  return language === PSEUDO_LANGUAGE ? 'en' : language;
}

/**
 * A shipped language for one OS/browser locale tag (`de-AT` → de, `zh-Hans-CN` → zh-CN), or null. `en-XA`, the
 * pseudo-locale tag Android and Chromium (`--lang=en-XA`) use, selects the pseudo-locale: that is how the layout tests
 * ask for it.
 */
export function matchLanguage(tag: string): Language | null {
  const lower = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!lower) return null;
  if (lower === PSEUDO_LANGUAGE.toLowerCase()) return PSEUDO_LANGUAGE;
  const [base] = lower.split('-');
  if (base === 'zh') {
    // Simplified script or a Simplified region; a bare `zh` is Simplified by CLDR's likely subtags.
    const parts = lower.split('-');
    if (parts.includes('hant') || parts.some((p) => ['tw', 'hk', 'mo'].includes(p))) return null;
    return 'zh-CN';
  }
  return LANGUAGES.find((l) => l === base) ?? null;
}

/**
 * The language to show: the setting when it names one, else the first of the OS's preferred locales (in order) that
 * Batchroom ships, else English.
 */
export function resolveLanguage(setting: LanguageSetting | undefined, systemLocales: readonly string[]): Language {
  if (setting && setting !== 'system') return setting;
  for (const tag of systemLocales) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return DEFAULT_LANGUAGE;
}
