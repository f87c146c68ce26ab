import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../main/cli/errors';
import { buildRunSpec, type RunFlags } from '../../../main/cli/run-spec';
import { folderBatchSpec } from '../../../main/core/watch/submitter';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { HotFolderConfigSchema } from '../../../shared/hotfolders/model';
import { WorkflowDetailSchema } from '../../../shared/service/model';
import { DEFAULT_SETTINGS } from '../../../shared/settings/schema';

// Job and client (issue 32 #4): `run`/`watch --job --client` and a hot folder's job/client reach the batch spec the
// report adds credits up by.

const workflow = WorkflowDetailSchema.parse({ id: 'grade', name: 'Grade', creditCost: 2, inputSchema: { imageFields: [{ id: 'photo', label: 'Photo' }], textFields: [], switchFields: [] } });
const build = (extra: Partial<RunFlags>) =>
  buildRunSpec({ workflow: 'grade', text: [], switch: [], mapping: [], out: 'out', ...extra }, ['photos'], workflow, DEFAULT_SETTINGS, '/work');

describe('--job and --client', () => {
  it('go into the batch spec, trimmed', () => {
    const spec = BatchSpecSchema.parse(build({ job: '  Smith wedding ', client: 'Smith & Co' }));
    expect(spec.job).toBe('Smith wedding');
    expect(spec.client).toBe('Smith & Co');
  });

  it('blank is no job, and without the flags the spec names none', () => {
    const spec = BatchSpecSchema.parse(build({ job: '   ' }));
    expect(spec.job).toBeUndefined();
    expect(spec.client).toBeUndefined();
  });

  it('a name over 120 characters is a usage error naming the flag', () => {
    expect(() => build({ client: 'x'.repeat(121) })).toThrow(UsageError);
    expect(() => build({ client: 'x'.repeat(121) })).toThrow(/--client must be at most 120 characters/);
  });
});

describe('a hot folder\'s job and client', () => {
  const config = (extra: object) => HotFolderConfigSchema.parse({ id: 'f', path: '/in', workflowId: 'grade', outputFolder: '/out', ...extra });

  it('go into the spec of every batch the folder sends', () => {
    const spec = folderBatchSpec(config({ job: 'Catalogue 2027', client: 'Acme' }), ['/in/a.jpg'], '');
    expect(spec).toMatchObject({ job: 'Catalogue 2027', client: 'Acme' });
  });

  it('default to none (settings written before them still load)', () => {
    const folder = config({});
    expect(folder).toMatchObject({ job: null, client: null });
    const spec = folderBatchSpec(folder, ['/in/a.jpg'], '');
    expect(spec.job).toBeUndefined();
    expect(spec.client).toBeUndefined();
  });
});
