import Ajv from 'ajv';
import { existsSync, mkdtempSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error plain .mjs build script without type declarations
import { buildIco, buildIcns, generateIcons, ICO_SIZES } from '../../../scripts/icons.mjs';

const root = join(import.meta.dirname, '..', '..', '..');
interface BuilderConfig {
  mac: { target: Array<{ target: string; arch: string[] }>; hardenedRuntime: boolean; entitlements: string; icon: string; minimumSystemVersion: string };
  win: { target: unknown; icon: string };
  linux: { icon: string; target: Array<{ target: string; arch: string[] }> };
  nsis: { perMachine: boolean; allowElevation: boolean };
  asarUnpack: string[];
  npmRebuild: boolean;
  afterSign: string;
  files: string[];
  asar: boolean;
  electronFuses: Record<string, boolean>;
}
interface Workflow {
  jobs: { package: { strategy: { matrix: { include: Array<{ runner: string; os: string; arch: string }> } }; steps: Array<{ run?: string }> } };
}
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

describe('electron-builder.yml', () => {
  it('validates against app-builder-lib\'s own JSON schema (offline)', () => {
    const schema = JSON.parse(readFileSync(join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 1)).toEqual([]);
    expect(ok).toBe(true);
    // The schema is strict enough to catch a misspelt key (so the check above means something).
    expect(validate({ ...config, mac: { ...config.mac, hardenedRuntim: true } })).toBe(false);
  });

  it.each([
    ['runAsNode', false],
    ['enableNodeOptionsEnvironmentVariable', false],
    ['enableNodeCliInspectArguments', false],
    ['enableCookieEncryption', true],
    ['enableEmbeddedAsarIntegrityValidation', true],
    ['onlyLoadAppFromAsar', true],
    ['grantFileProtocolExtraPrivileges', false],
  ])('flips the Electron fuse %s to %s at packaging time', (fuse, value) => {
    expect(config.electronFuses?.[fuse]).toBe(value);
    // OnlyLoadAppFromAsar and integrity validation mean nothing without an asar.
    expect(config.asar).toBe(true);
  });

  it('targets only what the pinned Electron supports (44+: macOS 13 or later, no 32-bit Windows or ARM Linux)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const major = Number(/\d+/.exec(pkg.devDependencies.electron ?? '')?.[0]);
    expect(major).toBeGreaterThanOrEqual(44);
    expect(Number(config.mac.minimumSystemVersion.split('.')[0])).toBeGreaterThanOrEqual(13);
    const arches = [...(config.win.target as Array<{ arch: string[] }>), ...config.linux.target].flatMap((t) => t.arch);
    expect(arches).not.toContain('ia32');
    expect(arches).not.toContain('armv7l');
  });

  it('builds dmg + zip for both Mac architectures with the hardened runtime and entitlements', () => {
    const targets = config.mac.target;
    expect(targets.map((t) => t.target).sort()).toEqual(['dmg', 'zip']);
    for (const t of targets) expect(t.arch.sort()).toEqual(['arm64', 'x64']);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(existsSync(join(root, config.mac.entitlements))).toBe(true);
    const plist = readFileSync(join(root, config.mac.entitlements), 'utf8');
    expect(plist).toContain('com.apple.security.cs.allow-jit');
    expect(plist).not.toMatch(/device\.camera|device\.audio-input|personal-information/);
    // Exactly JIT: library validation stays on (issue 30 item 12) — every bundled native module is signed with the
    // app's Team ID, so `disable-library-validation` would only let foreign dylibs be injected.
    const keys = [...plist.replace(/<!--[\s\S]*?-->/g, '').matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1]);
    expect(keys).toEqual(['com.apple.security.cs.allow-jit']);
    // Helpers (GPU, renderer) inherit the same list, not a wider one.
    expect((config.mac as { entitlementsInherit?: string }).entitlementsInherit).toBe(config.mac.entitlements);
    expect(existsSync(join(root, config.afterSign))).toBe(true);
  });

  it('builds a per-user NSIS installer for x64 and arm64', () => {
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64', 'arm64'] }]);
    expect(config.nsis.perMachine).toBe(false);
    expect(config.nsis.allowElevation).toBe(false);
  });

  it('unpacks the native modules from asar and does not rebuild N-API modules', () => {
    const unpacked = config.asarUnpack.join(' ');
    for (const name of ['keytar', 'sharp', '@img', 'libsql']) expect(unpacked).toContain(`node_modules/${name}/`);
    expect(config.npmRebuild).toBe(false);
  });

  it('points at icons and bundles that exist where the app looks for them', () => {
    for (const icon of [config.mac.icon, config.win.icon, config.linux.icon, 'assets/tray.png', 'assets/trayTemplate.png', 'assets/trayTemplate@2x.png']) {
      expect(existsSync(join(root, icon)), icon).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('dist/electron/main.cjs');
    expect(config.files).toEqual(expect.arrayContaining(['dist/electron/**', 'dist/renderer/**']));
  });
});

describe('the release workflow', () => {
  const workflow = parse(readFileSync(join(root, '.github/workflows/release.yml'), 'utf8')) as Workflow;

  it('packages on macOS and Windows runners after running the tests there', () => {
    const include = workflow.jobs.package.strategy.matrix.include;
    expect(include.map((m) => `${m.os}-${m.arch}`).sort()).toEqual(['mac-arm64', 'mac-x64', 'win-arm64', 'win-x64']);
    expect(include.some((m) => m.runner.startsWith('macos'))).toBe(true);
    expect(include.some((m) => m.runner.startsWith('windows'))).toBe(true);
    const runs = workflow.jobs.package.steps.map((s) => s.run ?? '');
    const testAt = runs.findIndex((r) => r.includes('npm run test:unit'));
    const packAt = runs.findIndex((r) => r.includes('electron-builder'));
    expect(testAt).toBeGreaterThanOrEqual(0);
    expect(packAt).toBeGreaterThan(testAt);
  });
});

describe('notarization hook', () => {
  const require = createRequire(import.meta.url);
  const hook = require(join(root, 'scripts/notarize.cjs')) as { notarizeApp(ctx: unknown, env: Record<string, string>): Promise<string> };
  const mac = { electronPlatformName: 'darwin', appOutDir: '/tmp/out', packager: { appInfo: { productFilename: 'Batchroom' } } };

  it('skips quietly without credentials or on other platforms', async () => {
    expect(await hook.notarizeApp(mac, {})).toMatch(/^skipped: no APPLE/);
    expect(await hook.notarizeApp({ ...mac, electronPlatformName: 'win32' }, { APPLE_ID: 'a' })).toMatch(/not a macOS build/);
    expect(await hook.notarizeApp(mac, { APPLE_ID: 'me@example.com' })).toMatch(/^skipped/);
  });
});

describe('icons', () => {
  const dir = mkdtempSync(join(tmpdir(), 'batchroom-icons-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates PNG, ICNS and ICO from the one SVG source', async () => {
    copyFileSync(join(root, 'assets/icon.svg'), join(dir, 'icon.svg'));
    copyFileSync(join(root, 'assets/tray.svg'), join(dir, 'tray.svg'));
    await generateIcons(dir);
    expect(await sharp(join(dir, 'icon.png')).metadata()).toMatchObject({ width: 1024, height: 1024, format: 'png' });
    expect(await sharp(join(dir, 'trayTemplate@2x.png')).metadata()).toMatchObject({ width: 32, height: 32 });

    const icns = readFileSync(join(dir, 'icon.icns'));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) types.push(icns.subarray(at, at + 4).toString('ascii'));
    expect(types).toEqual(expect.arrayContaining(['ic07', 'ic08', 'ic09', 'ic10']));

    const ico = readFileSync(join(dir, 'icon.ico'));
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(ICO_SIZES.length);
    const firstOffset = ico.readUInt32LE(6 + 12);
    expect(ico.subarray(firstOffset, firstOffset + 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('writes the ICO size byte as 0 for 256 px images', () => {
    const png = Buffer.from('fake');
    const ico = buildIco(new Map([[256, png]])) as Buffer;
    expect(ico.readUInt8(6)).toBe(0);
    expect((buildIcns(new Map([[16, png]])) as Buffer).subarray(8, 12).toString('ascii')).toBe('icp4');
  });
});
