import { describe, expect, it } from 'vitest';
import { UsageError, describeFailure } from '../../../main/cli/errors';
import { buildRunSpec, type RunFlags } from '../../../main/cli/run-spec';
import { exitCodeFor, summarize, summaryText } from '../../../main/cli/summary';
import { isSettled } from '../../../main/cli/batch-tracker';
import type { BatchSummary, ItemView } from '../../../shared/engine/model';
import { AppError } from '../../../shared/errors';
import { KeychainUnavailableError, KeyTransportError, MissingApiKeyError } from '../../../main/core/secrets';
import { WorkflowDetailSchema, type WorkflowDetail } from '../../../shared/service/model';
import { DEFAULT_SETTINGS } from '../../../shared/settings/schema';

const workflow: WorkflowDetail = WorkflowDetailSchema.parse({
  id: 'grade', name: 'Grade', creditCost: 2,
  inputSchema: {
    imageFields: [{ id: 'photo', label: 'Photo' }, { id: 'backdrop', label: 'Backdrop', required: false }],
    textFields: [
      { id: 'look', label: 'Look', required: true, presetOptions: [{ id: 'warm', label: 'Warm' }, { id: 'cool', label: 'Cool' }] },
      { id: 'caption', label: 'Caption' },
    ],
    switchFields: [
      { id: 'effects', label: 'Effects', options: [{ id: 'grain', label: 'Grain' }, { id: 'vignette', label: 'Vignette' }] },
      { id: 'mode', label: 'Mode', multiple: false, options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] },
    ],
  },
});

const flags = (extra: Partial<RunFlags> = {}): RunFlags => ({ workflow: 'grade', text: ['look=warm'], switch: [], mapping: [], out: 'out', ...extra });
const build = (extra: Partial<RunFlags> = {}, paths = ['photos']) => buildRunSpec(flags(extra), paths, workflow, DEFAULT_SETTINGS, '/work');

describe('buildRunSpec', () => {
  it('turns flags into a batch spec with absolute paths and the settings as defaults', () => {
    const spec = build({ text: ['look=cool', 'caption=a=b'], switch: ['effects=grain,vignette', 'mode='], aspect: '16:9', size: '2k', budget: '10', recursive: true });
    expect(spec).toMatchObject({
      workflowId: 'grade',
      parameters: {
        texts: { look: 'cool', caption: 'a=b' },
        switchSelections: { effects: ['grain', 'vignette'], mode: [] },
        globalOverrides: { aspectRatio: '16:9', imageSize: '2K' },
      },
      inputs: { paths: ['/work/photos'], recursive: true, mappings: [] },
      output: { outputFolder: '/work/out', namingTemplate: DEFAULT_SETTINGS.namingTemplate, collisionPolicy: 'suffix' },
      budget: 10,
      source: { kind: 'cli' },
    });
  });

  it('takes the result file options from --format, --quality and --colour, else from settings, and refuses nonsense', () => {
    expect(build().output).toMatchObject({ format: 'source', quality: 92, colour: 'srgb' });
    expect(buildRunSpec(flags(), ['p'], workflow, { ...DEFAULT_SETTINGS, outputFormat: 'tiff', jpegQuality: 80, colourPolicy: 'source' }, '/w').output)
      .toMatchObject({ format: 'tiff', quality: 80, colour: 'source' });
    expect(build({ format: 'webp', quality: '75', colour: 'source' }).output).toMatchObject({ format: 'webp', quality: 75, colour: 'source' });
    expect(() => build({ format: 'bmp' })).toThrow(/--format must be one of source, jpeg, png, tiff, webp/);
    for (const quality of ['0', '101', '9.5', 'high']) expect(() => build({ quality })).toThrow(/--quality must be a whole number from 1 to 100/);
    expect(() => build({ colour: 'cmyk' })).toThrow(/--colour must be one of srgb, source/);
  });

  it('accepts explicit mappings for multi-image items', () => {
    const spec = build({ mapping: ['photo=a.jpg,backdrop=/abs/b.jpg'] }, []);
    expect(spec.inputs?.mappings).toEqual([{ photo: '/work/a.jpg', backdrop: '/abs/b.jpg' }]);
  });

  it.each([
    [{ text: ['look=warm', 'nosuch=1'] }, /no text field "nosuch" \(text fields: look, caption\)/],
    [{ text: ['look=hot'] }, /--text look must be one of warm, cool/],
    [{ text: ['look'] }, /--text expects field=value/],
    [{ text: [] }, /grade needs --text look=warm\|cool/],
    [{ switch: ['effects=grain,sparkle'] }, /unknown option sparkle/],
    [{ switch: ['mode=a,b'] }, /takes at most one option/],
    [{ switch: ['nosuch=a'] }, /no switch field "nosuch"/],
    [{ imageField: 'nosuch' }, /no image field "nosuch"/],
    [{ aspect: '5:4' }, /--aspect must be one of/],
    [{ size: '4K' }, /--size must be one of 1K, 2K/],
    [{ onCollision: 'replace' }, /--on-collision must be one of suffix, skip, overwrite/],
    [{ budget: '-1' }, /--budget must be a number/],
  ])('refuses %j as a usage error', (extra, message) => {
    expect(() => build(extra as Partial<RunFlags>)).toThrow(message);
    expect(() => build(extra as Partial<RunFlags>)).toThrow(UsageError);
  });

  it('without --out or a fixed folder in settings, leaves the folder to the engine (a Batchroom folder next to the photos)', () => {
    expect(build({ out: undefined }).output!.outputFolder).toBe('');
    expect(buildRunSpec(flags({ out: undefined }), ['photos'], workflow, { ...DEFAULT_SETTINGS, outputFolder: '/fixed' }, '/work').output!.outputFolder).toBe('/fixed');
  });

  it('refuses a run without inputs', () => {
    expect(() => build({}, [])).toThrow(/No input photos/);
  });
});

describe('exit codes and the summary line', () => {
  const batch = (extra: Partial<BatchSummary> = {}): BatchSummary => ({
    id: 'b', workflowId: 'grade', workflowName: 'Grade', state: 'completed', pausedReason: null, pauseCode: null, createdAt: '', total: 3, counts: {} as BatchSummary['counts'],
    progress: 1, etaMs: 0, creditCost: 2, unitCost: 1, trialRest: null, creditsSpent: 4, budget: null, outputFolder: '/out', ...extra,
  });
  const item = (state: ItemView['state'], outputs: string[] = []): ItemView => ({
    id: state, batchId: 'b', position: 0, displayName: `${state}.jpg`, sources: {}, state, progress: 0, reason: null, executionId: null,
    outputs, creditsCharged: 0, verdict: null, updatedAt: '',
  });

  it('counts cancelled as failed and lists saved outputs', () => {
    const summary = summarize({ batches: [batch()], items: [item('saved', ['/out/a.jpg']), item('cancelled'), item('skipped')] });
    expect(summary).toEqual({ type: 'summary', saved: 1, failed: 1, skipped: 1, unknown: 0, chargedNoResult: 0, creditsSpent: 4, outputs: ['/out/a.jpg'], paidElsewhere: 0 });
    expect(exitCodeFor(summary, [batch()])).toBe(1);
  });

  it('is 0 for saved and skipped only, 1 with unknown items, 4 for a batch paused for credits', () => {
    const ok = summarize({ batches: [batch()], items: [item('saved'), item('skipped')] });
    expect(exitCodeFor(ok, [batch()])).toBe(0);
    expect(exitCodeFor(summarize({ batches: [batch()], items: [item('unknown')] }), [batch()])).toBe(1);
    const paused = batch({ state: 'paused', pausedReason: 'insufficient credits: 1 left, next item costs 2', pauseCode: 'insufficient-credits' });
    expect(exitCodeFor(ok, [paused])).toBe(4);
  });

  it('takes the exit code of a paused batch from its pause code, never from the words of its reason', () => {
    const ok = summarize({ batches: [batch()], items: [item('saved')] });
    const paused = (pauseCode: BatchSummary['pauseCode'], pausedReason: string) => batch({ state: 'paused', pauseCode, pausedReason });
    // A key rejected mid-run: exit 3 as docs/cli.md promises (its message mentions no credit, and once said "credits").
    expect(exitCodeFor(ok, [paused('unauthorized', 'the service rejected the API key (no credits for this key). Check it in Settings, then resume.')])).toBe(3);
    expect(exitCodeFor(ok, [paused('budget', 'stopped at 3 of 3')])).toBe(4);
    // Words about money in a pause of another kind do not make it a money stop.
    expect(exitCodeFor(ok, [paused('user', 'paused by you before the credit ran out')])).toBe(1);
    expect(exitCodeFor(ok, [paused('output-unwritable', 'Output disk full: 36 KB free on /mnt/x. Free space, then Resume.')])).toBe(1);
    // The key beats money when several batches stopped.
    expect(exitCodeFor(ok, [paused('budget', 'b'), paused('unauthorized', 'k')])).toBe(3);
    const text = summaryText({ batches: [paused('output-unwritable', 'Output disk full: 36 KB free on /mnt/x. Free space, then Resume.')], items: [] }, ok);
    // Word-wrapped at 80 columns: read as one line.
    expect(text.replace(/\s+/g, ' ')).toContain('Output disk full: 36 KB free on /mnt/x. Free space, then Resume. Its paid results are kept');
  });

  it('settles a batch paused for its output folder once only paid results wait, and never one paused by an outage', () => {
    const counts = (c: Partial<BatchSummary['counts']>) => c as BatchSummary['counts'];
    const unwritable = (c: Partial<BatchSummary['counts']>) => batch({ state: 'paused', pauseCode: 'output-unwritable', pausedReason: 'x', counts: counts(c) });
    expect(isSettled(unwritable({ downloading: 3, saved: 2 }))).toBe(true);
    expect(isSettled(unwritable({ downloading: 3, running: 1 }))).toBe(false);
    // Encoded and waiting for a slot when the disk filled: not sent while paused, so not waited for (it hung `run`).
    expect(isSettled(unwritable({ downloading: 2, encoding: 1 }))).toBe(true);
    expect(isSettled(batch({ state: 'paused', pauseCode: 'budget', pausedReason: 'x', counts: counts({ encoding: 1 }) }))).toBe(true);
    expect(isSettled(batch({ state: 'paused', pauseCode: 'service-unreachable', pausedReason: 'service-unreachable', counts: counts({}) }))).toBe(false);
    expect(isSettled(batch({ state: 'paused', pauseCode: 'budget', pausedReason: 'x', counts: counts({ downloading: 1 }) }))).toBe(false);
  });

  it('maps error codes to exit codes with a hint, and scrubs secrets', () => {
    expect(describeFailure(new AppError('unauthorized', 'rejected sk_live_abcdefgh12345678'))).toMatchObject({ exitCode: 3, hint: expect.stringMatching(/key/) });
    expect(describeFailure(new AppError('unauthorized', 'rejected sk_live_abcdefgh12345678')).message).not.toContain('abcdefgh12345678');
    expect(describeFailure(new AppError('insufficient_credits', 'x')).exitCode).toBe(4);
    expect(describeFailure(new AppError('budget_exceeded', 'x')).exitCode).toBe(4);
    expect(describeFailure(new AppError('server', 'x')).exitCode).toBe(1);
    expect(describeFailure(new UsageError('bad', 'do this')).exitCode).toBe(2);
    // Credential errors are AppErrors with their own code and hint; nothing is classified by its name or its words.
    expect(describeFailure(new MissingApiKeyError('https://x/api/v1'))).toEqual({ exitCode: 3, message: 'No API key for https://x/api/v1.', hint: expect.stringMatching(/batchroom key set/) });
    expect(describeFailure(new KeychainUnavailableError('Cannot autolaunch D-Bus'))).toMatchObject({ exitCode: 3, hint: expect.stringMatching(/Unlock your keychain/) });
    expect(describeFailure(new KeyTransportError('http://nas', 'plain http off this machine'))).toMatchObject({ exitCode: 3 });
    expect(describeFailure(new AppError('keychain_unavailable', 'locked', { hint: 'Unlock it.' })).hint).toBe('Unlock it.');
    const lookalike = Object.assign(new Error('No API key for https://x/api/v1.'), { name: 'MissingApiKeyError' });
    expect(describeFailure(lookalike).exitCode).toBe(1);
  });
});
