import { configDefaults, defineConfig } from 'vitest/config';
import linuxServices from './test/main/ci/linux-services.json' with { type: 'json' };

// One runner, three projects by runtime: plain Node (shared + main), jsdom (renderer), and the slower
// end-to-end suites (real processes, Chromium) that run one file at a time.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/shared/**/*.test.ts', 'test/main/**/*.test.ts'],
          // BATCHROOM_NO_LINUX_SERVICES=1 (the macOS and Windows CI jobs) leaves out the files that need PostgreSQL,
          // gnome-keyring or tmpfs mounts (test/main/ci/linux-services.json, docs/ci.md).
          exclude: [...configDefaults.exclude, ...(process.env[linuxServices.env] === '1' ? linuxServices.files.map((t) => t.file) : [])],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/renderer/**/*.test.ts', 'test/renderer/**/*.test.tsx'],
          setupFiles: ['test/renderer/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
