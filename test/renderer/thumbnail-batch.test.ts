import { expect, it } from 'vitest';
import { createAppStore } from '../../renderer/store/app-store';
import { MAX_THUMBNAILS, withCappedUrls } from '../../renderer/store/review-slice';
import { standardBridge } from './helpers/fixtures';

// Queue (issue 34 #4): a fast flick brings ~10 rows a frame, each asking for its thumbnail. Each store change copies
// the URL record and runs every subscriber's selector, so the answers of one frame reach the store as one change.

it('puts thumbnails answered together into the store in one change, each asked once, a failed one not again', async () => {
  const fake = standardBridge({
    'files:thumbnailUrl': ({ path }: { path: string }) => {
      if (path.includes('broken')) throw new Error('unreadable');
      return { url: `batchroom-media://thumb${path}` };
    },
  });
  const store = createAppStore(fake.api);
  let changes = 0;
  store.subscribe((now, before) => { if (now.thumbnailUrls !== before.thumbnailUrls) changes += 1; });
  const paths = [...Array.from({ length: 10 }, (_, n) => `/in/IMG_${n}.jpg`), '/in/broken.jpg'];
  await Promise.all([...paths, ...paths].map((p) => store.getState().loadThumbnail(p)));
  await new Promise((ok) => setTimeout(ok, 150));
  expect(changes).toBe(1);
  expect(store.getState().thumbnailUrls['/in/IMG_3.jpg']).toBe('batchroom-media://thumb/in/IMG_3.jpg');
  expect(store.getState().thumbnailUrls['/in/broken.jpg']).toBeNull();
  await store.getState().loadThumbnail('/in/broken.jpg');
  expect(fake.callsTo('files:thumbnailUrl')).toHaveLength(paths.length);
});

it('keeps at most MAX_THUMBNAILS when a frame adds many at once, the newest kept', () => {
  let urls: Record<string, string | null> = {};
  for (let round = 0; round < 30; round++) {
    urls = withCappedUrls(urls, new Map(Array.from({ length: 40 }, (_, n) => [`/in/${round}-${n}.jpg`, `thumb:${round}-${n}`])));
    expect(Object.keys(urls).length).toBeLessThanOrEqual(MAX_THUMBNAILS);
  }
  expect(urls['/in/29-39.jpg']).toBe('thumb:29-39');
  expect(urls['/in/0-0.jpg']).toBeUndefined();
});
