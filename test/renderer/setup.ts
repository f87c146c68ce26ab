import '@testing-library/jest-dom/vitest';

// jsdom has no layout: every element measures 0×0, so a virtualized list would render no rows. Give elements a
// plausible viewport size (the queue's scroller is the only consumer that measures).
for (const [prop, size] of [['offsetHeight', 600], ['clientHeight', 600], ['offsetWidth', 900], ['clientWidth', 900]] as const) {
  Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => size });
}
