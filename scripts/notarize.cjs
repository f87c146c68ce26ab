// electron-builder afterSign hook: notarizes the signed macOS app with Apple's notary service. Driven entirely by
// environment variables, and skipped (with a note) when they are absent, so unsigned local builds still work:
//   App Store Connect API key: APPLE_API_KEY (path to the .p8), APPLE_API_KEY_ID, APPLE_API_ISSUER
//   or an Apple ID:            APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID
// The values are passed to @electron/notarize and never printed.

function credentials(env) {
  if (env.APPLE_API_KEY && env.APPLE_API_KEY_ID && env.APPLE_API_ISSUER) {
    return { appleApiKey: env.APPLE_API_KEY, appleApiKeyId: env.APPLE_API_KEY_ID, appleApiIssuer: env.APPLE_API_ISSUER };
  }
  if (env.APPLE_ID && env.APPLE_APP_SPECIFIC_PASSWORD && env.APPLE_TEAM_ID) {
    return { appleId: env.APPLE_ID, appleIdPassword: env.APPLE_APP_SPECIFIC_PASSWORD, teamId: env.APPLE_TEAM_ID };
  }
  return null;
}

async function notarizeApp(context, env = process.env) {
  if (context.electronPlatformName !== 'darwin') return 'skipped: not a macOS build';
  if (env.SKIP_NOTARIZE) return 'skipped: SKIP_NOTARIZE is set';
  const auth = credentials(env);
  if (!auth) return 'skipped: no APPLE_API_KEY* or APPLE_ID* variables';
  const appPath = `${context.appOutDir}/${context.packager.appInfo.productFilename}.app`;
  const { notarize } = await import('@electron/notarize');
  await notarize({ appPath, ...auth });
  return `notarized ${appPath}`;
}

module.exports = async function afterSign(context) {
  const outcome = await notarizeApp(context);
  console.log(`  • notarize: ${outcome}`);
};
module.exports.notarizeApp = notarizeApp;
module.exports.credentials = credentials;
