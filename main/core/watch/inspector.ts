import { classifyInputFile } from '../images/classify';
import { hashFile } from '../images/hash';
import type { FileInspector } from './ports';

/** The engine's own name filter and content hash: a hot folder and a manual batch agree on what a file is. */
export const defaultInspector: FileInspector = {
  contentHash: (path) => hashFile(path),
  classify: async (path) => {
    const verdict = classifyInputFile(path);
    return verdict.ok ? { supported: true } : { supported: false, reason: verdict.reason };
  },
};
