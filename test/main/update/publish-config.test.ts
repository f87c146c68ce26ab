import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { UpdateFeedSchema } from '../../../shared/update/model';

// The feed electron-builder bakes into the app (the first publish entry → resources/app-update.yml) is one the app's
// own settings and policy file can also name, so switching between them is only a matter of configuration.

const config = parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'electron-builder.yml'), 'utf8')) as {
  publish: Array<Record<string, unknown>>;
  generateUpdatesFilesForAllChannels?: boolean;
};

describe('electron-builder.yml publish block', () => {
  it('publishes a generic feed first and offers GitHub releases, both in the shape Settings and the policy file take', () => {
    expect(config.publish.map((p) => p.provider)).toEqual(['generic', 'github']);
    for (const entry of config.publish) expect(UpdateFeedSchema.safeParse(entry).success, JSON.stringify(entry)).toBe(true);
  });

  it('writes every channel file for a stable release, so beta users also get stable releases', () => {
    expect(config.generateUpdatesFilesForAllChannels).toBe(true);
  });
});
