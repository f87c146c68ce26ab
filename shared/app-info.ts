export const APP_NAME = 'Batchroom';
/** Kept in step with package.json by a test (test/shared/app-info.test.ts). */
export const APP_VERSION = '0.1.0';
export const USER_AGENT = `${APP_NAME}/${APP_VERSION}`;
