import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, runCli } from './run-cli';

// Issue 30 item 7, end to end: a service that echoes the key in every `name` it sends (the workflow's name among
// them) — the sandbox behind a rewriting proxy. The real `batchroom run --json`: neither its stdout, nor anything in
// the state folder (journal.db and its WAL), nor the results (XMP WorkflowName) may hold the key.

let dir: string;
let sandbox: RunningSandbox;
let proxy: Server;
let proxyOrigin: string;

function startEchoProxy(target: URL, key: string): Promise<Server> {
  const server = createServer((req, res) => {
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let body = Buffer.concat(chunks);
        if (String(answer.headers['content-type']).includes('json')) {
          body = Buffer.from(body.toString('utf8').split(target.origin).join(proxyOrigin).replace(/"name":"/g, `"name":"${key} `));
        }
        const headers = { ...answer.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-echo-'));
  sandbox = await startTestSandbox();
  proxy = await startEchoProxy(new URL(sandbox.url), sandbox.apiKey);
  proxyOrigin = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a key echoed back by the service', () => {
  it('reaches neither --json, nor journal.db, nor the results\' XMP', { timeout: 120_000 }, async () => {
    const photos = join(dir, 'photos');
    await mkdir(photos);
    await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 40 } } }).jpeg().toFile(join(photos, 'a.jpg'));
    const state = join(dir, 'state');
    const out = join(dir, 'out');
    const env = cliEnv(state, { BATCHROOM_API_KEY: sandbox.apiKey });
    const serviceUrl = sandbox.url.replace(new URL(sandbox.url).origin, proxyOrigin);
    const run = await runCli(['--service-url', serviceUrl, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--out', out, photos], env);
    expect(run.code, run.stderr).toBe(0);
    const key = sandbox.apiKey;
    const body = key.replace(/^sk_(live|test)_/, '');
    expect(run.stdout).not.toContain(body);
    expect(run.stderr).not.toContain(body);
    const results = await filesUnder(out);
    expect(results.length).toBeGreaterThan(0);
    const written = await Promise.all([...results, ...(await filesUnder(state))].map(async (f) => ({ f, bytes: (await readFile(f)).toString('latin1') })));
    for (const { f, bytes } of written) expect(bytes.includes(body), f).toBe(false);
    // The echo did arrive, masked: the results' XMP names the workflow with the key's masked form.
    expect(written.some(({ bytes }) => bytes.includes('sk_test_'))).toBe(true);
  });
});
