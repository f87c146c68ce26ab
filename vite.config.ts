import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer bundle: served by the browser host (`batchroom ui`) and loaded from disk by Electron, so every
// asset URL is relative (base './') and nothing is inlined as a script (the CSP forbids inline scripts).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // Electron and the browser host both forbid inline scripts; keep the module preload polyfill out.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
