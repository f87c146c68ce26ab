// Names the Electron glue shares between the window, the protocols, the IPC wrapper and the tests.

/** The renderer is served from this privileged, standard scheme instead of file:// (its own origin, CSP-able). */
export const APP_SCHEME = 'batchroom';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Previews: serves only files the core registered through `previewUrlFor`. */
export const MEDIA_SCHEME = 'batchroom-media';
export const MEDIA_HOST = 'file';

/** Every resource the renderer loads comes from the app or media protocol; nothing else, no inline script. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // Inline styles cannot run script; React style props and CSS-in-JS helpers need them.
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' ${MEDIA_SCHEME}: data: blob:`,
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Registered with `protocol.registerSchemesAsPrivileged` before the app is ready. The app scheme is standard and
 * secure so it has a real origin ('self' in the CSP, ES modules, storage); codeCache lets V8 cache its scripts.
 */
export const PRIVILEGED_SCHEMES = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } },
  { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
];
