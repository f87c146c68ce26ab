import { describe, expect, it } from 'vitest';
import { createLogTail } from '../../../main/core/crash/log-tail';
import { scrubText, scrubValue } from '../../../main/core/crash/scrub';

const opts = { home: '/Users/ann', user: 'ann', appRoot: '/Applications/Batchroom.app/Contents/Resources/app.asar', secrets: ['pg-secret-Otter'] };

describe('crash report scrubbing', () => {
  it('removes paths of the user in every spelling, keeps the app frames and the words around', () => {
    expect(scrubText("ENOENT: no such file or directory, open '/Users/ann/My Photos/IMG 1.jpg'", opts))
      .toBe("ENOENT: no such file or directory, open '<path>'");
    expect(scrubText('Output folder /Volumes/Shoot 2/out: permission denied', opts)).toBe('Output folder <path>: permission denied');
    expect(scrubText('could not read C:\\Users\\ann\\Pictures\\a.NEF', opts)).toBe('could not read <path>');
    expect(scrubText('share \\\\nas\\photos\\job 7 is gone', opts)).toBe('share <path>');
    expect(scrubText('~/Pictures/x and D:/Jobs/y', opts)).toBe('<path>');
    expect(scrubText('    at run (/Applications/Batchroom.app/Contents/Resources/app.asar/dist/electron/main.cjs:12:5)', opts))
      .toBe('    at run (<app>/dist/electron/main.cjs:12:5)');
    expect(scrubText('at node:internal/timers:581:17, 3/4 done, 12 MB/s, and/or', opts)).toBe('at node:internal/timers:581:17, 3/4 done, 12 MB/s, and/or');
  });

  it('removes keys, passwords, URL credentials and paths, photo names and the user name', () => {
    expect(scrubText('key sk_live_abcdefgh12345678 and pg-secret-Otter', opts)).toBe('key sk_live_…5678 and …tter');
    expect(scrubText('GET https://api.example/v1/results/abc?sig=1 and postgres://studio:pw@nas.local:5432/db', opts))
      .toBe('GET https://api.example/<…> and postgres://nas.local:5432/<…>');
    expect(scrubText('file:///Users/ann/x.jpg', opts)).toBe('<path>');
    expect(scrubText('saved DSC_0042.NEF and wedding-07.jpeg for Ann', opts)).toBe('saved <photo> and <photo> for <user>');
  });

  it('cuts a huge string after masking its secrets', () => {
    // The password straddles the cut: masked first, no half of it is left.
    const huge = `${'x'.repeat(4085)} pg-secret-Otter ${'a'.repeat(200_000)}.jpg`;
    const out = scrubText(huge, opts);
    expect(out).not.toContain('pg-secr');
    expect(out.length).toBeLessThan(4200);
    expect(out).toMatch(/… \(\d+ more characters\)$/);
  });

  it('scrubs every string of a log record and keeps its shape', () => {
    const record = { at: 't', level: 'info', scope: 'app', message: 'saved', fields: { path: '/Users/ann/a.jpg', n: 3, list: ['C:\\x\\y'] } };
    expect(scrubValue(record, opts)).toEqual({ at: 't', level: 'info', scope: 'app', message: 'saved', fields: { path: '<path>', n: 3, list: ['<path>'] } });
  });

  it('the log tail keeps the last N records in order', () => {
    const tail = createLogTail(3);
    for (let i = 0; i < 7; i += 1) tail.push({ at: String(i), level: 'info', scope: 's', message: `m${i}` });
    expect(tail.records().map((r) => r.message)).toEqual(['m4', 'm5', 'm6']);
  });
});
