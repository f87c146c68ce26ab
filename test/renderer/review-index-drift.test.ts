import { expect, it, vi } from 'vitest';
import { createAppStore } from '../../renderer/store/app-store';
import { listKey } from '../../renderer/store/item-lists';
import { batch, item, standardBridge } from './helpers/fixtures';
import { counts } from './helpers/fixtures';

// Review steps through the saved list; when a running batch saves an item ahead of the one shown, the list is
// read again (stale): Next must step from where the photo on screen is now, not show it again (review of issue 34).
it('Next after an earlier item of a running batch was saved shows the next photo, not the same one again', async () => {
  let items = [item(0, 'saved'), item(1, 'running'), item(2, 'saved'), item(3, 'saved')];
  const fake = standardBridge({ 'batches:items': () => ({ total: items.length, items }) });
  const store = createAppStore(fake.api);
  const s = () => store.getState();
  await s().loadService();
  s().openReview('b1');
  await vi.waitFor(() => expect(s().reviewItemId).toBe('i0'));
  s().stepReview(1);
  await vi.waitFor(() => expect(s().reviewItemId).toBe('i2'));
  // i1 finishes while the user looks at i2.
  items = [item(0, 'saved'), item(1, 'saved'), item(2, 'saved'), item(3, 'saved')];
  s().applyProgress({ batches: [batch({ total: 4, counts: counts({ saved: 4 }) })], items: [items[1]!] });
  await vi.waitFor(() => expect(s().itemLists[listKey('b1', 'saved')]?.pages[0]?.map((i) => i.id)).toEqual(['i0', 'i1', 'i2', 'i3']), { timeout: 4000 });
  expect(s().reviewItemId).toBe('i2');
  s().stepReview(1);
  await new Promise((r) => setTimeout(r, 200));
  expect(s().reviewItemId).toBe('i3');
});
