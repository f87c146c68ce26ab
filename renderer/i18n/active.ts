import { createFormatters, translatorFor, type Formatters, type KeyOf, type Language, type MessageValues, type Namespace, type Translator } from '../../shared/i18n';

// The language the page shows, for code that runs outside React (renderer/lib, store notices). The provider sets it
// before its children render, and the whole tree remounts when the language changes (App's I18nProvider key), so a
// text made here and a text made by a hook never disagree.

let active: Translator = translatorFor('en');
let formatters: Formatters = createFormatters(active);

export function setActiveLanguage(language: Language): void {
  if (active.language === language) return;
  active = translatorFor(language);
  formatters = createFormatters(active);
}

export function activeTranslator(): Translator {
  return active;
}

/** A message in the page's language, outside a component (a component uses `useT`). */
export function tr<N extends Namespace>(namespace: N, key: KeyOf<N>, values?: MessageValues): string {
  return active.t(namespace, key, values);
}

/** Locale formatters for the page's language, outside a component (a component uses `useFormat`). */
export function activeFormat(): Formatters {
  return formatters;
}
