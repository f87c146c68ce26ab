import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CATALOGS, createFormatters, LANGUAGES, NAMESPACES, resolveLanguage, translatorFor } from '../../shared/i18n';

/** The arguments a message uses, with the kind of value each needs. */
function argumentsOf(elements: MessageFormatElement[], out = new Map<string, 'number' | 'date' | 'string' | 'tag'>()) {
  for (const el of elements) {
    if (el.type === TYPE.plural || el.type === TYPE.number) out.set(el.value, 'number');
    else if (el.type === TYPE.date || el.type === TYPE.time) out.set(el.value, 'date');
    else if (el.type === TYPE.argument || el.type === TYPE.select) { if (!out.has(el.value)) out.set(el.value, 'string'); }
    if (el.type === TYPE.plural || el.type === TYPE.select) Object.values(el.options).forEach((o) => argumentsOf(o.value, out));
    if (el.type === TYPE.tag) { out.set(el.value, 'tag'); argumentsOf(el.children, out); }
  }
  return out;
}

function hasPlural(elements: MessageFormatElement[]): boolean {
  return elements.some((el) => el.type === TYPE.plural
    || ((el.type === TYPE.select) && Object.values(el.options).some((o) => hasPlural(o.value)))
    || (el.type === TYPE.tag && hasPlural(el.children)));
}

/** Arguments English uses only to choose a plural form, never printed (no `#`): a language without plurals drops them. */
function selectorsOnly(elements: MessageFormatElement[]): Set<string> {
  const printed = (els: MessageFormatElement[], name: string): boolean => els.some((el) => el.type === TYPE.pound
    || ((el.type === TYPE.argument || el.type === TYPE.number) && el.value === name)
    || ((el.type === TYPE.plural || el.type === TYPE.select) && Object.values(el.options).some((o) => printed(o.value, name))));
  const selectors = new Set<string>();
  for (const el of elements) {
    if (el.type === TYPE.plural && !printed(elements.filter((e) => e !== el), el.value)
      && !Object.values(el.options).some((o) => printed(o.value, el.value))) selectors.add(el.value);
  }
  return selectors;
}

const sample = { number: 3, date: new Date(Date.UTC(2026, 10, 27, 10, 0)), string: 'x', tag: (chunks: unknown[]) => chunks.join('') } as const;

describe('message catalogs', () => {
  for (const ns of NAMESPACES) {
    const english = CATALOGS.en[ns];
    for (const lang of LANGUAGES) {
      it(`${lang}/${ns}.json has exactly the English keys, each a valid ICU message with English's arguments`, () => {
        const catalog = CATALOGS[lang][ns];
        expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort());
        for (const [key, message] of Object.entries(catalog)) {
          const args = argumentsOf(parse(message));
          // A translation may not drop or invent an argument: `{count}` missing would show a wrong number nowhere.
          const source = parse(english[key]!);
          const optional = lang === 'ja' || lang === 'zh-CN' ? selectorsOnly(source) : new Set<string>();
          const wanted = [...argumentsOf(source).keys()].filter((name) => !optional.has(name) || args.has(name));
          expect([...args.keys()].sort(), `${lang}/${ns}:${key}`).toEqual(wanted.sort());
          const values = Object.fromEntries([...args].map(([name, kind]) => [name, sample[kind]]));
          expect(() => new IntlMessageFormat(message, lang).format(values), `${lang}/${ns}:${key}`).not.toThrow();
          if (lang === 'ja' || lang === 'zh-CN') expect(hasPlural(parse(message)), `${lang}/${ns}:${key} uses a plural`).toBe(false);
        }
      });
    }
  }

  it('writes plurals by language: "1 photo" / "3 photos", French 0,5 singular, none in Japanese and Chinese', () => {
    const photos = (lang: (typeof LANGUAGES)[number], n: number) => createFormatters(translatorFor(lang)).photos(n);
    expect([photos('en', 1), photos('en', 3)]).toEqual(['1 photo', '3 photos']);
    expect([photos('de', 1), photos('de', 3)]).toEqual(['1 Foto', '3 Fotos']);
    expect([photos('es', 1), photos('es', 1000)]).toEqual(['1 foto', '1000 fotos']);
    expect([photos('ja', 1), photos('ja', 3)]).toEqual(['1 枚の写真', '3 枚の写真']);
    expect([photos('zh-CN', 1), photos('zh-CN', 3)]).toEqual(['1 张照片', '3 张照片']);
    const credits = (lang: (typeof LANGUAGES)[number], n: number) => createFormatters(translatorFor(lang)).credits(n);
    expect([credits('en', 1), credits('en', 0.5), credits('en', 1234.567)]).toEqual(['1 credit', '0.5 credits', '1,234.57 credits']);
    expect([credits('fr', 0.5), credits('fr', 2)]).toEqual(['0,5 crédit', '2 crédits']);
    expect(credits('de', 1234.5)).toBe('1.234,5 Credits');
  });

  it('formats numbers, sizes and dates by locale', () => {
    const de = createFormatters(translatorFor('de'));
    const en = createFormatters(translatorFor('en'));
    const ja = createFormatters(translatorFor('ja'));
    expect([en.number(1234.5), de.number(1234.5)]).toEqual(['1,234.5', '1.234,5']);
    expect(en.number(-0.0001, 2)).toBe('0');
    expect([en.size(1_234_567), de.size(1_234_567), en.size(512)]).toEqual(['1.2 MB', '1,2 MB', '512 byte']);
    const at = Date.UTC(2026, 10, 27, 12, 0);
    expect([en.date(at), de.date(at), ja.date(at)]).toEqual(['Nov 27, 2026', '27.11.2026', '2026/11/27']);
    expect([en.eta(3_723_000), de.eta(65_000), ja.eta(5_000)]).toEqual(['1h 02m', '1 min 05 s', '5秒']);
  });

  it('makes every English message longer by 40 % and accented in the pseudo-locale, arguments intact', () => {
    const pseudo = translatorFor('en-XA');
    const english = translatorFor('en');
    for (const ns of NAMESPACES) {
      for (const key of Object.keys(CATALOGS.en[ns])) {
        const values = Object.fromEntries([...argumentsOf(parse(CATALOGS.en[ns][key]!))].map(([n, k]) => [n, sample[k]]));
        const en = english.t(ns, key as never, values as never);
        const xa = pseudo.t(ns, key as never, values as never);
        expect(xa.length, `${ns}:${key}`).toBeGreaterThanOrEqual(Math.floor(en.length * 1.4));
        if (/[a-z]/i.test(en)) expect(xa, `${ns}:${key}`).not.toBe(en);
      }
    }
    expect(pseudo.t('common', 'photos', { count: 3 })).toMatch(/^⟦3 ƥħǿŧǿş ·+⟧$/);
  });

  it('follows the OS language unless the setting names one', () => {
    expect(resolveLanguage('system', ['de-AT', 'en-US'])).toBe('de');
    expect(resolveLanguage('system', ['pt-BR', 'fr-CA'])).toBe('fr');
    expect(resolveLanguage('system', ['zh-Hans-CN'])).toBe('zh-CN');
    expect(resolveLanguage('system', ['zh-TW', 'ja-JP'])).toBe('ja');
    expect(resolveLanguage('system', ['pt-BR'])).toBe('en');
    expect(resolveLanguage('es', ['de-DE'])).toBe('es');
    expect(resolveLanguage(undefined, ['ja'])).toBe('ja');
    expect(resolveLanguage('system', ['en-XA'])).toBe('en-XA');
  });
});
