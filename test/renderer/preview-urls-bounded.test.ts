import { expect, it } from 'vitest';
import { createAppStore } from '../../renderer/store/app-store';
import { MAX_THUMBNAILS } from '../../renderer/store/review-slice';
import { standardBridge } from './helpers/fixtures';

// Review (issue 34 review): stepping through a 100k batch asks for two or three previews a photo (before, after, the next
// after). Like thumbnails, the URLs kept must stay bounded (each new one copies the whole record).
it('keeps a bounded number of preview URLs after stepping through 400 photos', async () => {
  const store = createAppStore(standardBridge().api);
  for (let n = 0; n < 400; n++) {
    await store.getState().loadPreview(`/in/IMG_${n}.jpg`);
    await store.getState().loadPreview(`/out/IMG_${n}_color-grade.jpg`);
  }
  expect(Object.keys(store.getState().previewUrls).length).toBeLessThanOrEqual(MAX_THUMBNAILS);
});
