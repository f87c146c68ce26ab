import '@testing-library/jest-dom/vitest';

// jsdom has no layout: every element measures 0×0, so a virtualized list would render no rows. Give elements a
// plausible viewport size (the queue's scroller is the only consumer that measures).
for (const [prop, size] of [['offsetHeight', 600], ['clientHeight', 600], ['offsetWidth', 900], ['clientWidth', 900]] as const) {
  Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => size });
}

// jsdom does not scroll either: scrollIntoView (the form brings an invalid field into view) does nothing here, as it
// would in a page that is already in view. The real scrolling is checked in the browser (test/e2e/ui-layout.test.ts).
Element.prototype.scrollIntoView ??= function scrollIntoView() { /* no layout to scroll */ };
