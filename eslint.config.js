// Flat config. The layering rules below are the architecture (docs/ARCHITECTURE.md) made executable:
// each runtime may import only what exists in that runtime.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'stream', 'url', 'worker_threads', 'util', 'events'];

// ESLint replaces (not merges) a rule's options when several config objects match a file, so each layer's
// restrictions are assembled here into one `no-restricted-imports` entry per file group.
const restrict = (files, { patterns = [], paths = [] }, ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
});

const ipcBan = (name, wrapper) => ({
  name: 'electron',
  importNames: [name],
  message: `${name} is used only in ${wrapper}, the one typed IPC wrapper that checks senders and parses with zod.`,
});

const IPC_MAIN_WRAPPER = 'main/electron/ipc-main.ts';
const IPC_RENDERER_WRAPPER = 'preload/ipc-renderer.ts';

const SHARED_PATTERNS = [
  { group: NODE_BUILTINS, message: 'shared/ is pure TypeScript: no Node built-ins.' },
  { group: ['electron', 'electron/*'], message: 'shared/ is pure TypeScript: no electron.' },
  { group: ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*'], message: 'shared/ is pure TypeScript: no UI libraries.' },
  { group: ['**/main/**', '**/renderer/**', '**/preload/**'], message: 'shared/ may not import from a runtime layer.' },
];
const CORE_PATTERNS = [
  { group: ['electron', 'electron/*', 'electron-store'], message: 'main/core is plain Node: never import electron (the glue lives in main/electron/).' },
  { group: ['**/electron/**', '**/renderer/**', '**/preload/**'], message: 'main/core may not import the Electron glue, preload or renderer.' },
];
const RENDERER_PATTERNS = [
  { group: NODE_BUILTINS, message: 'renderer/ runs in the browser: no Node built-ins; ask main through the bridge.' },
  { group: ['electron', 'electron/*'], message: 'renderer/ never touches electron: use window.batchroom (the bridge).' },
  { group: ['**/main/**', '**/preload/**'], message: 'renderer/ may import only shared/ and its own files.' },
];
const PRELOAD_PATTERNS = [
  { group: ['**/main/**', '**/renderer/**'], message: 'preload/ may import only electron and shared/.' },
  { group: NODE_BUILTINS, message: 'A sandboxed preload cannot use Node built-ins.' },
];
const PLAIN_NODE = ['main/core/**/*.ts', 'main/sandbox/**/*.ts', 'main/cli/**/*.ts', 'main/host/**/*.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'release/**', 'test-artifacts/**', 'test/fixtures/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-syntax': ['error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports: they keep names greppable and refactors safe.' },
        { selector: 'ExportNamedDeclaration > ExportSpecifier[exported.name="default"]', message: 'Use named exports.' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  // Tool config files must default-export.
  { files: ['*.config.ts', '*.config.js', '*.config.mjs'], rules: { 'no-restricted-syntax': 'off' } },
  { files: ['renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  restrict(['shared/**/*.ts'], { patterns: SHARED_PATTERNS }),
  restrict(PLAIN_NODE, { patterns: CORE_PATTERNS }),
  // The product core never depends on its test double: the hosts start the sandbox (CoreOptions.startEmbeddedService).
  restrict(['main/core/**/*.ts'], { patterns: [...CORE_PATTERNS, { group: ['**/sandbox/**'], message: 'main/core may not import the sandbox: hosts start it and hand it over (CoreOptions.startEmbeddedService).' }] }),
  restrict(['main/electron/**/*.ts'], { paths: [ipcBan('ipcMain', IPC_MAIN_WRAPPER)] }, [IPC_MAIN_WRAPPER]),
  restrict(['renderer/**/*.{ts,tsx}'], { patterns: RENDERER_PATTERNS }),
  restrict(['preload/**/*.ts'], { patterns: PRELOAD_PATTERNS, paths: [ipcBan('ipcRenderer', IPC_RENDERER_WRAPPER)] }, [IPC_RENDERER_WRAPPER]),
  restrict([IPC_RENDERER_WRAPPER], { patterns: PRELOAD_PATTERNS }),
);
