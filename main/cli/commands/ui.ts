import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceCore } from '../../core/app/types';
import { createLogger } from '../../core/log';
import { UsageError } from '../errors';
import { EXIT } from '../exit-codes';
import { API_KEY_FLAG_WARNING, createOutput, globalOptions, knownSecrets, rememberSecret } from '../session';

/** How long the engine and hot folders wait for the page's first catalog before they start anyway. */
const RUNTIME_GRACE_MS = 1500;
/** How long a Ctrl-C before the core is up waits for the catalog warm-up before the connection closes under it. */
const WARM_UP_WAIT_MS = 1000;

/**
 * `ui`: the renderer in any browser, served on 127.0.0.1 with a one-time token. Runs until Ctrl-C. With --json the
 * first stdout line is `{"url": …}` so scripts (and the end-to-end tests) can open it.
 */
export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description('serve the Batchroom interface to a browser on this machine (loopback only)')
    .option('--port <port>', 'port to listen on (default: a random free port)')
    .action(async (flags: { port?: string }, command: Command) => {
      const options = globalOptions(command);
      const out = createOutput(options);
      const port = flags.port === undefined ? 0 : Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (got "${flags.port}").`);
      rememberSecret(options.apiKey);
      if (options.apiKey) out.notice(API_KEY_FLAG_WARNING);
      // Loaded here, not at start: other commands (and --help) never pay for the web server and the sandbox.
      const [{ resolveStateDir }, { browserHostCapabilities, startBrowserHost }, { createHostMediaRegistry }, { defaultRendererDir, ensureRendererBuilt }, { startEmbeddedSandbox }, { interruptSignal }] = await Promise.all([
        import('../../core/settings'), import('../../host/browser-host'), import('../../host/media-registry'), import('../../host/renderer-build'), import('../../sandbox/embedded'),
        import('../batch-tracker'),
      ]);
      const logger = createLogger({
        minLevel: options.debug ? 'debug' : 'warn',
        secrets: knownSecrets,
        sink: (r) => process.stderr.write(`[${r.level}] ${r.scope}: ${r.message}${r.fields ? ` ${JSON.stringify(r.fields)}` : ''}\n`),
      });
      const stateDir = resolveStateDir({ stateDir: options.stateDir });
      // BATCHROOM_RENDERER_DIR serves a renderer built elsewhere (tests, packaged builds) and never builds.
      const rendererDir = process.env.BATCHROOM_RENDERER_DIR?.trim() || defaultRendererDir();
      const built = process.env.BATCHROOM_RENDERER_DIR?.trim()
        ? existsSync(join(rendererDir, 'index.html'))
        : ensureRendererBuilt(rendererDir, (line) => process.stderr.write(`${line}\n`));
      if (!built) {
        out.notice('batchroom: the interface is not built; the page will say how to build it (`npx vite build`).');
      }
      const media = createHostMediaRegistry();
      // Ctrl-C is the way to stop, and it may come as soon as the URL is printed — before the core is up: listen
      // first, so it is never the default handler (which kills the process with the journal open).
      const interrupt = interruptSignal();
      /** What a Ctrl-C before the core is up makes the core's start reject with: a clean stop, not a failure. */
      const stoppedEarly = new Error('batchroom ui was stopped before the core was up');
      /** Stops the core's start at its next step (journal, recovery, hot folders, first submission) once Ctrl-C came. */
      const stopStart = new AbortController();
      const interrupted = new Promise<void>((resolve) => {
        const stop = () => {
          stopStart.abort(stoppedEarly);
          resolve();
        };
        if (interrupt.signal.aborted) stop();
        else interrupt.signal.addEventListener('abort', stop, { once: true });
      });
      // The core (journal, settings, the service or the embedded sandbox; ≈ 0.5 s of loading on this thread) starts
      // once the server listens: the URL is printed without waiting behind it, the browser loads the renderer
      // meanwhile (served from memory, one turn of the event loop per file) and its first IPC calls wait for the core.
      // The catalog is answered once the service connection is open (onServiceReady), before the journal and engine.
      let startCore = () => {};
      let serviceReady: (service: ServiceCore) => void = () => {};
      let serviceFailed: (error: unknown) => void = () => {};
      const service = new Promise<ServiceCore>((resolve, reject) => {
        serviceReady = resolve;
        serviceFailed = reject;
      });
      service.catch(() => undefined); // the core's failure is reported below
      // The rest of the core (journal, engine, hot folders, previews: ≈ 0.2 s of loading on this same thread) waits
      // until the page's first catalog is answered, or RUNTIME_GRACE_MS after the service is up if no page asks.
      // A Ctrl-C meanwhile rejects it: the journal never opens, so recovery and hot folders never send paid work
      // the user has just asked to stop. A Ctrl-C after it (while the rest loads) stops the start at its next step
      // through stopStart: what opened is closed again, nothing is armed or submitted.
      let catalogAnswered = () => {};
      let graceTimer: NodeJS.Timeout | undefined;
      const stopGrace = () => clearTimeout(graceTimer); // else a core that failed or stopped waits it out before exit
      let warmUp: Promise<unknown> = Promise.resolve();
      const runtimeAfter = Promise.race([
        new Promise<void>((resolve) => (catalogAnswered = resolve)),
        // After the warm-up below (briefly): the core then closes the connection, which would cut it mid-request.
        interrupted.then(() => settledWithin(warmUp, WARM_UP_WAIT_MS)).then(() => Promise.reject(stoppedEarly)),
      ]);
      runtimeAfter.catch(() => undefined); // createCore awaits it only once the service is up
      void service.then((ready) => {
        if (interrupt.signal.aborted) return; // stopping already: the core is about to close the connection
        graceTimer = setTimeout(catalogAnswered, RUNTIME_GRACE_MS);
        // Warms the HTTP client while the browser still loads the page: the first request pays for node:http's
        // first use and the connection (a TCP and, for https, TLS handshake; kept alive for the page's request),
        // which otherwise fell on the page's first catalog. A real catalog read (free, no credits);
        // its answer is dropped — the page's own request reads the catalog again.
        warmUp = Promise.resolve(ready.handlers['workflows:list']({})).catch((error: unknown) => logger.debug('catalog warm-up failed', { error: String(error) }));
      }, () => undefined);
      const coreReady = new Promise<void>((resolve) => (startCore = resolve))
        .then(() => Promise.all([import('../../core/app/create-core'), import('../../host/consent-code')]))
        .then(([{ createCore }, { createCodeConsent }]) => {
          if (interrupt.signal.aborted) throw stoppedEarly; // not even the service connection (or the embedded sandbox)
          return createCore({
            host: browserHostCapabilities(media), stateDir, env: process.env, serviceUrl: options.serviceUrl, apiKey: options.apiKey,
            logger, startHotFolders: true, startEmbeddedService: startEmbeddedSandbox, onServiceReady: serviceReady, runtimeAfter,
            signal: stopStart.signal,
            // A key or the photos go to a new origin only with the code printed here, on the terminal that started us.
            confirmOriginChange: createCodeConsent({ print: (text) => void process.stderr.write(text) }),
          });
        });
      coreReady.catch(serviceFailed); // awaited below, after the host is up; a core that failed has no service either
      void coreReady.then(stopGrace, stopGrace);
      let host: Awaited<ReturnType<typeof startBrowserHost>>;
      try {
        host = await startBrowserHost({ core: coreReady, service, onCatalogAnswered: () => catalogAnswered(), media, rendererDir, uploadDir: join(stateDir, 'uploads'), port, logger });
      } catch (error) {
        interrupt.dispose();
        throw error;
      }
      if (out.json) out.record({ url: host.url });
      else {
        process.stdout.write(`Batchroom is running at:\n\n  ${host.url}\n\nOpen it in a browser on this machine. Ctrl-C stops it.\n`);
      }
      startCore();
      let core: Awaited<typeof coreReady>;
      try {
        core = await coreReady;
      } catch (error) {
        interrupt.dispose();
        if (error === stoppedEarly) out.notice('batchroom: stopping…');
        await host.close(); // the page could not do anything: the error below is what the user needs
        if (error !== stoppedEarly) throw error;
        process.exitCode = EXIT.ok;
        return;
      }
      for (const secret of core.secrets()) rememberSecret(secret);
      await interrupted;
      interrupt.dispose();
      out.notice('batchroom: stopping…');
      await host.close();
      await core.shutdown({ graceful: true, timeoutMs: 10_000 });
      process.exitCode = EXIT.ok;
    });
}

/** `work` settled, or `ms` passed (the timer does not keep the process alive). */
function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
    void work.then(() => resolve(), () => resolve());
  });
}
