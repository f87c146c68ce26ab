import { describe, expect, it } from 'vitest';
import { DEFAULT_NAMING_TEMPLATE } from '../../shared/engine/model';
import { DEFAULT_SETTINGS, LIVE_SERVICE_URL, SETTINGS_KEYS, SettingsPatchSchema, SettingsSchema } from '../../shared/settings/schema';

describe('settings schema', () => {
  it('has a default for every key', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      serviceUrl: LIVE_SERVICE_URL,
      sandboxMode: 'auto',
      concurrency: 4,
      outputFolder: null,
      namingTemplate: DEFAULT_NAMING_TEMPLATE,
      collisionPolicy: 'suffix',
      uploadSizePolicy: 'fit',
      stripMetadata: true,
      sidecars: false,
      sidecar: 'none',
      metadataPolicy: 'keep',
      outputFormat: 'source',
      jpegQuality: 92,
      colourPolicy: 'srgb',
      rawPairs: 'jpeg',
      theme: 'system',
      language: 'system',
      resultCacheMb: 2048,
      lowBalanceWarning: 50,
      notifyWhenDone: true,
      hotFolders: [],
      studioLedgerUrl: null,
      studioLedgerAllowPlaintext: false,
      updateChannel: 'stable',
      updateStayOnThisVersion: false,
      updateFeed: null,
    });
    expect(Object.keys(DEFAULT_SETTINGS).sort()).toEqual([...SETTINGS_KEYS].sort());
  });

  it('bounds concurrency to 1–32 whole numbers and accepts only http(s) service URLs', () => {
    for (const concurrency of [0, 33, 2.5]) expect(SettingsSchema.safeParse({ concurrency }).success).toBe(false);
    expect(SettingsSchema.parse({ concurrency: 32 }).concurrency).toBe(32);
    expect(SettingsSchema.safeParse({ serviceUrl: 'ftp://x.example' }).success).toBe(false);
    expect(SettingsSchema.safeParse({ serviceUrl: 'http://127.0.0.1:4010/api/v1' }).success).toBe(true);
  });

  it('keeps a password out of the studio ledger URL (it would sit in the settings file)', () => {
    for (const url of ['postgres://me@nas.local:5432/batchroom', 'postgresql://me@[::1]/db?sslmode=require', '  postgres://nas/batchroom  ']) {
      expect(SettingsPatchSchema.safeParse({ studioLedgerUrl: url }).success, url).toBe(true);
    }
    for (const url of ['postgres://me:hunter2@nas/batchroom', 'postgres://me:@nas/batchroom', 'mysql://me@nas/db', 'postgres://me@nas', 'nas.local/batchroom', 'postgres://me@nas/db?password=hunter2', 'postgres://me@nas/db?sslmode=require&password=x']) {
      expect(SettingsPatchSchema.safeParse({ studioLedgerUrl: url }).success, url).toBe(false);
    }
    expect(SettingsPatchSchema.parse({ studioLedgerUrl: null })).toEqual({ studioLedgerUrl: null });
  });

  it('a patch leaves absent keys absent (no defaults sneak in) and refuses unknown keys', () => {
    expect(SettingsPatchSchema.parse({ theme: 'dark' })).toEqual({ theme: 'dark' });
    expect(SettingsPatchSchema.parse({})).toEqual({});
    expect(SettingsPatchSchema.safeParse({ theem: 'dark' }).success).toBe(false);
    expect(SettingsPatchSchema.safeParse({ concurrency: 99 }).success).toBe(false);
    expect(SettingsPatchSchema.parse({ outputFolder: null })).toEqual({ outputFolder: null });
  });

  it('fills hot-folder defaults from the hot-folder model', () => {
    const parsed = SettingsPatchSchema.parse({ hotFolders: [{ id: 'a', path: '/in', workflowId: 'wf', outputFolder: '/out' }] });
    expect(parsed.hotFolders?.[0]).toMatchObject({ recursive: false, enabled: false, collisionPolicy: 'suffix' });
  });
});
