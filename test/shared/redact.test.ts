import { describe, expect, it } from 'vitest';
import { maskKey, redactSecrets } from '../../shared/redact';

describe('maskKey', () => {
  it('keeps the prefix and the last four characters', () => {
    expect(maskKey('sk_live_0123456789abcdef')).toBe('sk_live_…cdef');
    expect(maskKey('sk_test_zzzzzzzzzz9876')).toBe('sk_test_…9876');
  });
  it('reveals nothing of short or unprefixed keys beyond four characters', () => {
    expect(maskKey('sk_live_abc')).toBe('sk_live_…');
    expect(maskKey('plainsecretvalue1234')).toBe('…1234');
    expect(maskKey('')).toBe('');
  });
});

describe('redactSecrets', () => {
  it('masks known secrets, key-shaped tokens and bearer credentials', () => {
    const key = 'sk_live_0123456789abcdef';
    const text = `failed with ${key}; header Authorization: Bearer ${key}; other sk_test_qwertyuiop1234; custom mysecretvalue99`;
    const out = redactSecrets(text, ['mysecretvalue99']);
    expect(out).not.toContain(key);
    expect(out).not.toContain('qwertyuiop1234');
    expect(out).not.toContain('mysecretvalue99');
    expect(out).toContain('sk_live_…cdef');
    expect(out).toContain('Bearer [redacted]');
  });
});
