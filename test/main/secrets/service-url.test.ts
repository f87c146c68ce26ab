import { describe, expect, it } from 'vitest';
import { InvalidServiceUrlError, normalizeServiceUrl } from '../../../main/core/secrets';

describe('normalizeServiceUrl', () => {
  it.each([
    ['https://API.Example.com', 'https://api.example.com/api/v1'],
    ['https://api.example.com/', 'https://api.example.com/api/v1'],
    ['https://api.example.com/api/v1/', 'https://api.example.com/api/v1'],
    ['  HTTPS://api.example.com/api/v1//  ', 'https://api.example.com/api/v1'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/api/v1'],
    ['https://host.example/prefix/', 'https://host.example/prefix/api/v1'],
    ['https://host.example:443/api/v1?x=1#frag', 'https://host.example/api/v1'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeServiceUrl(input)).toBe(expected);
  });

  it.each(['not a url', 'ftp://host.example', 'file:///etc/passwd', 'https://user:secret@host.example'])('rejects %s', (input) => {
    expect(() => normalizeServiceUrl(input)).toThrow(InvalidServiceUrlError);
  });

  it('never repeats URL credentials or a pasted key in its error message', () => {
    expect(() => normalizeServiceUrl('https://user:sk_live_abcdefgh1234@host.example')).toThrow(/^(?!.*sk_live_abcdefgh1234).*$/s);
    expect(() => normalizeServiceUrl('sk_live_abcdefgh1234')).toThrow(/^(?!.*sk_live_abcdefgh1234).*$/s);
  });
});
