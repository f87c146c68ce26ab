// A hot-folder process for baseline-crash.test.ts: `first` arms a folder with the 'skip' policy and stops dead
// once its scan has started (the hash cache's load never answers; the parent kills it -9 there); `restart` starts
// the manager again on the same state folder, as the app does, and prints what it submitted as one JSON line.
import { join } from 'node:path';
import { createFileBaselineStore, createMemoryHashCache } from '../../../main/core/watch';
import type { HashCacheStore } from '../../../main/core/watch/hash-cache';
import { folderConfig, harness, sleep, waitFor } from './fakes';

const [inbox, stateDir, phase] = process.argv.slice(2) as [string, string, 'first' | 'restart'];
const baseline = createFileBaselineStore(join(stateDir, 'hotfolders'));
const config = folderConfig({ path: inbox, outputFolder: join(stateDir, 'out'), existingFiles: 'skip' });

if (phase === 'first') {
  const stuck: HashCacheStore = {
    load: () => {
      process.stdout.write('scanning\n');
      return new Promise(() => undefined);
    },
    add: async () => undefined,
    clear: async () => undefined,
  };
  const h = harness({ baseline, hashCache: stuck });
  void h.manager.save(config);
} else {
  const h = harness({ baseline, hashCache: createMemoryHashCache(), configs: [config] });
  await h.manager.start();
  await waitFor(() => h.manager.list()[0]?.status.state === 'armed', 30_000, 'armed after the restart');
  await sleep(1_500);
  process.stdout.write(`${JSON.stringify({ state: h.manager.list()[0]?.status.state, submitted: h.engine.submittedPaths().length })}\n`);
  await h.manager.close();
  process.exit(0);
}
