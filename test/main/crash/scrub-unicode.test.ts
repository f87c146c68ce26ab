import { expect, it } from 'vitest';

// Found by a review (issue 33 #4): a user name is a whole word in any script, not only ASCII.
import { scrubText } from '../../../main/core/crash/scrub';
it('user names with non-ASCII letters are removed too', () => {
  const o = { home: '/home/özlem', user: 'Özlem' };
  expect(scrubText('login Özlem failed', o)).not.toContain('Özlem');
  expect(scrubText('signed in as Łukasz', { user: 'Łukasz' })).not.toContain('Łukasz');
});
