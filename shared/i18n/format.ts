import type { CreditKind } from '../engine/money';
import type { Translator } from './translator';

// Numbers, credits, dates, sizes and durations as the reader's locale writes them: one set of helpers for the
// renderer (renderer/lib/format.ts binds them to the current language) and the Electron glue. The CLI keeps its
// ICU-free English formatter (shared/engine/money.ts) for script-stable output.

export interface Formatters {
  /** 1,234.5 / 1.234,5 / 1 234,5: at most `decimals` decimals; what rounds to zero is 0, never -0. */
  number(n: number, decimals?: number): string;
  /** "1 credit", "0.5 credits", "1.234,57 Credits"; free test credits for `test`. At most two decimals. */
  credits(n: number, kind?: CreditKind): string;
  /** "3 photos" / "1 photo" / "3 枚の写真". */
  photos(count: number): string;
  /** A byte count in the largest unit below 1,000 of it (B, kB, MB, GB), in the locale's words. */
  size(bytes: number): string;
  /** Medium date ("Nov 27, 2026", "27.11.2026", "2026/11/27"). */
  date(at: Date | string | number): string;
  /** Date and time, short. */
  dateTime(at: Date | string | number): string;
  /** Time of day, with seconds. */
  time(at: Date | string | number): string;
  /** A whole percentage of a 0–1 fraction, clamped ("42%", "42 %"). */
  percent(fraction: number): string;
  /** A remaining time ("45s", "3m 05s", "1h 02m"); null is a dash. */
  eta(ms: number | null): string;
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

export function createFormatters(translator: Translator): Formatters {
  const { locale, t } = translator;
  const numberFormats = new Map<number, Intl.NumberFormat>();
  const numberFormat = (decimals: number) => {
    let format = numberFormats.get(decimals);
    if (!format) numberFormats.set(decimals, (format = new Intl.NumberFormat(locale, { maximumFractionDigits: decimals, signDisplay: 'negative' })));
    return format;
  };
  // signDisplay 'negative': a small negative that rounds away (-0.001 with 2 decimals) is 0, never "-0".
  const number = (n: number, decimals = 3) => numberFormat(decimals).format(n);
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const timeFormat = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
  const percentFormat = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    number,
    credits(n, kind = 'real') {
      // Plural by the amount as written (1.001 is "1 credit"), so the rule and the digits never disagree.
      const rounded = Math.round(n * 100) / 100;
      return t('common', kind === 'test' ? 'testCredits' : 'credits', { n: Math.abs(rounded), amount: number(n, 2) });
    },
    photos: (count) => t('common', 'photos', { count }),
    size(bytes) {
      let value = Math.max(0, bytes);
      let unit = 0;
      while (value >= 1000 && unit < SIZE_UNITS.length - 1) { value /= 1000; unit += 1; }
      return new Intl.NumberFormat(locale, {
        style: 'unit', unit: SIZE_UNITS[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
      }).format(value);
    },
    date: (at) => dateFormat.format(new Date(at)),
    dateTime: (at) => dateTimeFormat.format(new Date(at)),
    time: (at) => timeFormat.format(new Date(at)),
    percent: (fraction) => percentFormat.format(Math.max(0, Math.min(1, fraction))),
    eta(ms) {
      if (ms === null) return t('common', 'none');
      const s = Math.round(ms / 1000);
      if (s < 60) return t('common', 'etaSeconds', { s });
      const m = Math.floor(s / 60);
      if (m < 60) return t('common', 'etaMinutes', { m, s: pad(s % 60) });
      return t('common', 'etaHours', { h: Math.floor(m / 60), m: pad(m % 60) });
    },
  };
}
