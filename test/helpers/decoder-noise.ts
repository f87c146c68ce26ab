import { vi, type MockInstance } from 'vitest';

// libheif's WASM glue writes "Could not parse HEIF file …" to stdout (console.log) before it throws: a test that
// feeds it a corrupt file on purpose keeps that line out of the test output, and still sees every other log line.

const HEIF_PARSE_NOISE = /^Could not parse HEIF file/;

/** Swallows libheif's parse-error line until the returned function is called; returns how many were swallowed. */
export function swallowHeifParseNoise(): () => number {
  const original = console.log.bind(console);
  let swallowed = 0;
  const spy: MockInstance = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && HEIF_PARSE_NOISE.test(args[0])) swallowed += 1;
    else original(...args);
  });
  return () => {
    spy.mockRestore();
    return swallowed;
  };
}
