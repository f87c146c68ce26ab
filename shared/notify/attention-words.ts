import { createFormatters, EN, type KeyOf, type Translator } from '../i18n';
import type { Attention } from './attention';

// What a host shows for an `app:attention`: the core sends message keys with their values beside the English
// sentence, and each host (the Electron glue natively, the browser host as a Web Notification) words it in the app's
// language from the `native` catalog. Without words, or with a key this build does not know (a core of another
// version), the English sentence is shown as it came: never a key.

const isNativeKey = (key: string): key is KeyOf<'native'> => Object.prototype.hasOwnProperty.call(EN.native, key);

/** The notification's title and body in the translator's language. */
export function attentionText(attention: Attention, translator: Translator): { title: string; body: string } {
  const words = attention.words;
  if (!words || !isNativeKey(words.title.key) || !isNativeKey(words.body.key)) return { title: attention.title, body: attention.body };
  // Credits as the reader's locale writes them ("24 Credits", "1,5 Credits"), given to the body as `{credits}`.
  const credits = words.credits ? { credits: createFormatters(translator).credits(words.credits.amount, words.credits.kind) } : {};
  return {
    title: translator.t('native', words.title.key, words.title.values),
    body: translator.t('native', words.body.key, { ...words.body.values, ...credits }),
  };
}
