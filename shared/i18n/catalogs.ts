// The message catalogs, one JSON file per language and namespace (docs/i18n.md). Imported statically so the
// renderer, the Electron glue and the tests read the same files with no loader; a new namespace is added here
// once, in every language (test/renderer/i18n-catalogs.test.ts checks that every key exists in every language).
import en_common from './locales/en/common.json';
import en_components from './locales/en/components.json';
import en_workflows from './locales/en/workflows.json';
import en_settings from './locales/en/settings.json';
import en_lib from './locales/en/lib.json';
import en_native from './locales/en/native.json';
import en_queue from './locales/en/queue.json';
import en_review from './locales/en/review.json';
import en_history from './locales/en/history.json';
import en_hotfolders from './locales/en/hotfolders.json';
import en_recipes from './locales/en/recipes.json';
import de_common from './locales/de/common.json';
import de_components from './locales/de/components.json';
import de_workflows from './locales/de/workflows.json';
import de_settings from './locales/de/settings.json';
import de_lib from './locales/de/lib.json';
import de_native from './locales/de/native.json';
import de_queue from './locales/de/queue.json';
import de_review from './locales/de/review.json';
import de_history from './locales/de/history.json';
import de_hotfolders from './locales/de/hotfolders.json';
import de_recipes from './locales/de/recipes.json';
import fr_common from './locales/fr/common.json';
import fr_components from './locales/fr/components.json';
import fr_workflows from './locales/fr/workflows.json';
import fr_settings from './locales/fr/settings.json';
import fr_lib from './locales/fr/lib.json';
import fr_native from './locales/fr/native.json';
import fr_queue from './locales/fr/queue.json';
import fr_review from './locales/fr/review.json';
import fr_history from './locales/fr/history.json';
import fr_hotfolders from './locales/fr/hotfolders.json';
import fr_recipes from './locales/fr/recipes.json';
import es_common from './locales/es/common.json';
import es_components from './locales/es/components.json';
import es_workflows from './locales/es/workflows.json';
import es_settings from './locales/es/settings.json';
import es_lib from './locales/es/lib.json';
import es_native from './locales/es/native.json';
import es_queue from './locales/es/queue.json';
import es_review from './locales/es/review.json';
import es_history from './locales/es/history.json';
import es_hotfolders from './locales/es/hotfolders.json';
import es_recipes from './locales/es/recipes.json';
import ja_common from './locales/ja/common.json';
import ja_components from './locales/ja/components.json';
import ja_workflows from './locales/ja/workflows.json';
import ja_settings from './locales/ja/settings.json';
import ja_lib from './locales/ja/lib.json';
import ja_native from './locales/ja/native.json';
import ja_queue from './locales/ja/queue.json';
import ja_review from './locales/ja/review.json';
import ja_history from './locales/ja/history.json';
import ja_hotfolders from './locales/ja/hotfolders.json';
import ja_recipes from './locales/ja/recipes.json';
import zhCN_common from './locales/zh-CN/common.json';
import zhCN_components from './locales/zh-CN/components.json';
import zhCN_workflows from './locales/zh-CN/workflows.json';
import zhCN_settings from './locales/zh-CN/settings.json';
import zhCN_lib from './locales/zh-CN/lib.json';
import zhCN_native from './locales/zh-CN/native.json';
import zhCN_queue from './locales/zh-CN/queue.json';
import zhCN_review from './locales/zh-CN/review.json';
import zhCN_history from './locales/zh-CN/history.json';
import zhCN_hotfolders from './locales/zh-CN/hotfolders.json';
import zhCN_recipes from './locales/zh-CN/recipes.json';

export const NAMESPACES = ['common', 'components', 'workflows', 'settings', 'lib', 'native', 'queue', 'review', 'history', 'hotfolders', 'recipes'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** A catalog: message key → ICU message. */
export type Messages = Readonly<Record<string, string>>;

/** The English catalogs are the source: their keys type each namespace's `t`, other languages follow them. */
export const EN = {
  common: en_common,
  components: en_components,
  workflows: en_workflows,
  settings: en_settings,
  lib: en_lib,
  native: en_native,
  queue: en_queue,
  review: en_review,
  history: en_history,
  hotfolders: en_hotfolders,
  recipes: en_recipes,
} as const;
export type KeyOf<N extends Namespace> = keyof (typeof EN)[N] & string;

export const CATALOGS: Record<'en' | 'de' | 'fr' | 'es' | 'ja' | 'zh-CN', Record<Namespace, Messages>> = {
  en: { common: en_common, components: en_components, workflows: en_workflows, settings: en_settings, lib: en_lib, native: en_native, queue: en_queue, review: en_review, history: en_history, hotfolders: en_hotfolders, recipes: en_recipes },
  de: { common: de_common, components: de_components, workflows: de_workflows, settings: de_settings, lib: de_lib, native: de_native, queue: de_queue, review: de_review, history: de_history, hotfolders: de_hotfolders, recipes: de_recipes },
  fr: { common: fr_common, components: fr_components, workflows: fr_workflows, settings: fr_settings, lib: fr_lib, native: fr_native, queue: fr_queue, review: fr_review, history: fr_history, hotfolders: fr_hotfolders, recipes: fr_recipes },
  es: { common: es_common, components: es_components, workflows: es_workflows, settings: es_settings, lib: es_lib, native: es_native, queue: es_queue, review: es_review, history: es_history, hotfolders: es_hotfolders, recipes: es_recipes },
  ja: { common: ja_common, components: ja_components, workflows: ja_workflows, settings: ja_settings, lib: ja_lib, native: ja_native, queue: ja_queue, review: ja_review, history: ja_history, hotfolders: ja_hotfolders, recipes: ja_recipes },
  'zh-CN': { common: zhCN_common, components: zhCN_components, workflows: zhCN_workflows, settings: zhCN_settings, lib: zhCN_lib, native: zhCN_native, queue: zhCN_queue, review: zhCN_review, history: zhCN_history, hotfolders: zhCN_hotfolders, recipes: zhCN_recipes },
};
