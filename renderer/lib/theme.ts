import { useEffect } from 'react';
import type { Theme } from '../../shared/settings/schema';

/** Applies the theme setting to <html data-theme>, following the system while the setting is 'system'. */
export function useTheme(theme: Theme | undefined): void {
  useEffect(() => {
    const root = document.documentElement;
    const media = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
    const apply = () => {
      const resolved = theme === 'light' || theme === 'dark' ? theme : media?.matches ? 'dark' : 'light';
      root.dataset.theme = resolved;
      root.style.colorScheme = resolved;
    };
    apply();
    if (theme !== 'system' && theme !== undefined) return;
    media?.addEventListener('change', apply);
    return () => media?.removeEventListener('change', apply);
  }, [theme]);
}
