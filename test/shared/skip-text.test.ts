import { describe, expect, it } from 'vitest';
import { describeSkip } from '../../shared/engine/skip-text';

describe('describeSkip: paying again for a maybe-charged photo', () => {
  const skip = { path: 'a.jpg', reason: 'charged on 2026-11-20 but the service lost the result — report it to the provider', payAgain: true };

  it('names --rerun in the CLI and keeps the app\'s words', () => {
    expect(describeSkip(skip, 'cli')).toBe(`${skip.reason}, or run again with --rerun to pay for it again`);
    expect(describeSkip(skip, 'app')).toBe(`${skip.reason}, or run again to pay for it again`);
  });
});
