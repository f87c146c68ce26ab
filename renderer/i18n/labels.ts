import type { KeyOf, Namespace } from '../../shared/i18n';
import { tr } from './active';

/**
 * A menu's labels read from a catalog each time one is shown (a getter per value), so a module-level constant
 * follows the page's language and every caller keeps `LABELS[value]`. `{ same: 'JPEG' }`: a name that is the same
 * in every language.
 */
export function catalogLabels<N extends Namespace, K extends string>(namespace: N, keys: Record<K, KeyOf<N> | { same: string }>): Readonly<Record<K, string>> {
  const out = {} as Record<K, string>;
  for (const value of Object.keys(keys) as K[]) {
    const key: KeyOf<N> | { same: string } = keys[value];
    Object.defineProperty(out, value, { enumerable: true, get: () => (typeof key === 'string' ? tr(namespace, key) : key.same) });
  }
  return out;
}
