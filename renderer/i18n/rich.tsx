import { Fragment, useMemo, type ReactNode } from 'react';
import type { KeyOf, MessageValues, Namespace } from '../../shared/i18n';
import { useTranslator } from './I18nProvider';

type Chunks = (string | ReactNode)[];
const keyed = (chunks: Chunks) => chunks.map((c, i) => <Fragment key={i}>{c}</Fragment>);

/** The tags a catalog message may use, as the elements they become. */
const TAGS: Record<string, (chunks: Chunks) => ReactNode> = {
  b: (chunks) => <strong>{keyed(chunks)}</strong>,
  em: (chunks) => <em>{keyed(chunks)}</em>,
  code: (chunks) => <code>{keyed(chunks)}</code>,
  mono: (chunks) => <span className="mono">{keyed(chunks)}</span>,
};

/**
 * `rt(key, values)` for messages with markup (`"<b>#</b> items are waiting"`): the words stay whole in the catalog and
 * a translator can move the bold part. Values may be elements too (a link, a code span).
 */
export function useRichT<N extends Namespace>(namespace: N): (key: KeyOf<N>, values?: Record<string, MessageValues[string] | ReactNode>) => ReactNode {
  const translator = useTranslator();
  return useMemo(() => (key, values = {}) => keyed(translator.rich<N, ReactNode>(namespace, key, { ...TAGS, ...values } as never)), [translator, namespace]);
}
