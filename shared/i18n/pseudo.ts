import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Messages } from './catalogs';

// The pseudo-locale makes two kinds of bug visible on screen: text that never went through a catalog (it stays plain
// ASCII while everything else is accented) and layouts that only fit English (every message is 40 % longer, the
// usual allowance for German, French or Spanish). Only literal text changes: arguments, plurals and tags keep their
// ICU syntax, so a pseudo message formats exactly like its English source.

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...'ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ'][i]!]),
);

/** How much longer than English a pseudo message is. */
export const PSEUDO_EXPANSION = 0.4;

function accent(text: string): string {
  return [...text].map((c) => ACCENTED[c] ?? c).join('');
}

/** Visible characters of literal text, the part a translation lengthens. */
function literalLength(elements: MessageFormatElement[]): number {
  let n = 0;
  for (const el of elements) {
    if (el.type === TYPE.literal) n += [...el.value].length;
    else if (el.type === TYPE.tag) n += literalLength(el.children);
    else if (el.type === TYPE.plural || el.type === TYPE.select) {
      // The longest branch is what the layout has to hold.
      n += Math.max(0, ...Object.values(el.options).map((o) => literalLength(o.value)));
    } else n += 3; // an argument: assume a short value
  }
  return n;
}

function accentAll(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((el) => {
    if (el.type === TYPE.literal) return { ...el, value: accent(el.value) };
    if (el.type === TYPE.tag) return { ...el, children: accentAll(el.children) };
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      const options = Object.fromEntries(Object.entries(el.options).map(([k, o]) => [k, { ...o, value: accentAll(o.value) }]));
      return { ...el, options } as MessageFormatElement;
    }
    return el;
  });
}

/**
 * One English message as its pseudo AST: accented, with `·` padding to 40 % more length inside `⟦ ⟧`, so a
 * truncated end is visible. An AST, not a string: IntlMessageFormat takes it as is (no printer needed).
 */
export function pseudoMessage(message: string): MessageFormatElement[] {
  const ast = parse(message);
  if (ast.length === 0) return ast;
  const pad = Math.ceil(literalLength(ast) * PSEUDO_EXPANSION);
  const literal = (value: string): MessageFormatElement => ({ type: TYPE.literal, value });
  return [literal('⟦'), ...accentAll(ast), literal(`${pad > 1 ? ' ' : ''}${'·'.repeat(Math.max(0, pad - 1))}⟧`)];
}

/** A whole English catalog in the pseudo-locale. */
export function pseudoCatalog(english: Messages): Record<string, MessageFormatElement[]> {
  return Object.fromEntries(Object.entries(english).map(([key, message]) => [key, pseudoMessage(message)]));
}
