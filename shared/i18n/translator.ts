import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGS, EN, type KeyOf, type Namespace } from './catalogs';
import { DEFAULT_LANGUAGE, intlLocaleOf, PSEUDO_LANGUAGE, type Language } from './languages';
import { pseudoCatalog } from './pseudo';

/** The values a message's `{arguments}` take. */
export type MessageValues = Record<string, PrimitiveType>;

/** `t(key, values)` for one namespace: the English catalog's keys are the only keys it accepts. */
export type TFunction<N extends Namespace> = (key: KeyOf<N>, values?: MessageValues) => string;

export interface Translator {
  readonly language: Language;
  /** The Intl locale for numbers and dates (English for the pseudo-locale). */
  readonly locale: string;
  t<N extends Namespace>(namespace: N, key: KeyOf<N>, values?: MessageValues): string;
  /**
   * A message with tags (`<b>#</b> items`): each tag's function gets its formatted children and returns what stands
   * in their place (a React element in the renderer). Answers the pieces in order.
   */
  rich<N extends Namespace, T>(namespace: N, key: KeyOf<N>, values: Record<string, PrimitiveType | T | ((chunks: (string | T)[]) => T)>): (string | T)[];
  /** A `t` bound to one namespace (what components use). */
  ns<N extends Namespace>(namespace: N): TFunction<N>;
}

type Source = string | MessageFormatElement[];

const pseudoCatalogs = new Map<Namespace, Record<string, MessageFormatElement[]>>();
function pseudoOf(namespace: Namespace): Record<string, MessageFormatElement[]> {
  let catalog = pseudoCatalogs.get(namespace);
  if (!catalog) pseudoCatalogs.set(namespace, (catalog = pseudoCatalog(EN[namespace] as Record<string, string>)));
  return catalog;
}

/** The message for a key: the language's own, else English (a missing translation shows English, never a key). */
function sourceOf(language: Language, namespace: Namespace, key: string): { source: Source; locale: string } | null {
  if (language === PSEUDO_LANGUAGE) {
    const pseudo = pseudoOf(namespace)[key];
    return pseudo ? { source: pseudo, locale: 'en' } : null;
  }
  const own = CATALOGS[language][namespace][key];
  if (own !== undefined) return { source: own, locale: intlLocaleOf(language) };
  const english = CATALOGS[DEFAULT_LANGUAGE][namespace][key];
  return english !== undefined ? { source: english, locale: 'en' } : null;
}

const translators = new Map<Language, Translator>();

/** The translator for one language; compiled messages are kept, so asking again is cheap. */
export function translatorFor(language: Language): Translator {
  const known = translators.get(language);
  if (known) return known;
  const compiled = new Map<string, IntlMessageFormat>();
  const formatOf = (namespace: Namespace, key: string): IntlMessageFormat | null => {
    const id = `${namespace}:${key}`;
    let format = compiled.get(id);
    if (!format) {
      const found = sourceOf(language, namespace, key);
      if (!found) return null;
      format = new IntlMessageFormat(found.source, found.locale);
      compiled.set(id, format);
    }
    return format;
  };
  // An unknown key is a programming error the type checker normally catches; show it rather than crash a screen.
  const t = <N extends Namespace>(namespace: N, key: KeyOf<N>, values?: MessageValues): string =>
    String(formatOf(namespace, key)?.format(values) ?? `${namespace}:${key}`);
  const rich = <N extends Namespace, T>(namespace: N, key: KeyOf<N>, values: Record<string, unknown>): (string | T)[] => {
    const result = formatOf(namespace, key)?.format<T>(values as never) ?? `${namespace}:${key}`;
    return Array.isArray(result) ? result : [result as string | T];
  };
  const translator: Translator = {
    language,
    locale: intlLocaleOf(language),
    t,
    rich: rich as Translator['rich'],
    ns: (namespace) => (key, values) => t(namespace, key, values),
  };
  translators.set(language, translator);
  return translator;
}
