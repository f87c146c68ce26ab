import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_VERSION, USER_AGENT } from '../../shared/app-info';

describe('app info', () => {
  it('keeps APP_VERSION in step with package.json', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
    expect(USER_AGENT).toBe(`Batchroom/${pkg.version}`);
  });
});
