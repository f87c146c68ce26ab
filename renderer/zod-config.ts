import { z } from 'zod';

// Imported first by main.tsx, before any module builds a schema. Zod compiles object parsers with `new Function`
// unless told not to, and probes for that ability once; under the page's CSP (no 'unsafe-eval', rightly) the probe is
// refused and Chromium logs two CSP errors on every page load. Jitless parsing is the same parsing, without eval.
z.config({ jitless: true });
