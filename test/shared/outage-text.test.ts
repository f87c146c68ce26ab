import { describe, expect, it } from 'vitest';
import { pausedReasonText, unreachableMessage } from '../../shared/engine/outage-text';

describe('outage wording', () => {
  it.each([
    [8_000, "Can't reach the service — retrying (next try in 8 s)"],
    [7_200, "Can't reach the service — retrying (next try in 8 s)"],
    [1, "Can't reach the service — retrying (next try in 1 s)"],
    [0, "Can't reach the service — retrying now"],
    [-500, "Can't reach the service — retrying now"],
  ])('next probe in %i ms reads %s', (inMs, text) => {
    expect(unreachableMessage({ nextTryAt: 1_000_000 + inMs }, 1_000_000)).toBe(text);
  });

  it('turns the engine code into a sentence and leaves other reasons as they are', () => {
    expect(pausedReasonText('service-unreachable', { since: 0, nextTryAt: 3_000 }, 0)).toBe("Can't reach the service — retrying (next try in 3 s)");
    expect(pausedReasonText('service-unreachable', null, 0)).toBe("Can't reach the service — retrying");
    expect(pausedReasonText('paused by you', null, 0)).toBe('paused by you');
    expect(pausedReasonText(null, null, 0)).toBeNull();
  });
});
