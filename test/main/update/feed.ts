import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stringify } from 'yaml';
import type { NativeInstaller } from '../../../main/core/update/node-updater';

// A release feed as electron-builder publishes it (latest.yml for Windows, latest-mac.yml for macOS, beta*.yml for
// the beta channel, the installers and their .blockmap), served by a real HTTP server on 127.0.0.1.

export interface FeedRelease {
  version: string;
  /** The channel file(s) it is listed in: 'latest' (stable) or 'beta'. */
  channel?: 'latest' | 'beta';
  stagingPercentage?: number;
  releaseNotes?: string;
  /** Publish a sha512 that is not the file's (a tampered or corrupted upload). */
  wrongSha512?: boolean;
}

export interface Feed {
  url: string;
  dir: string;
  /** Every path the updater asked for, in order. */
  requests: string[];
  publish(release: FeedRelease): { installer: Buffer; exeName: string; zipName: string };
  close(): Promise<void>;
}

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** The blockmap electron-builder writes next to each file: gzip'd JSON of per-chunk checksums and sizes. */
function blockmapOf(bytes: Buffer): Buffer {
  const size = 64 * 1024;
  const checksums: string[] = [];
  const sizes: number[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    const chunk = bytes.subarray(offset, offset + size);
    checksums.push(createHash('sha256').update(chunk).digest('base64'));
    sizes.push(chunk.length);
  }
  return gzipSync(JSON.stringify({ version: '2', files: [{ name: 'file', offset: 0, checksums, sizes }] }));
}

export async function startFeed(): Promise<Feed> {
  const dir = mkdtempSync(join(tmpdir(), 'batchroom-feed-'));
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir)) return void res.writeHead(403).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-length': body.length, 'content-type': file.endsWith('.yml') ? 'text/yaml' : 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/releases/`,
    dir,
    requests,
    publish(release) {
      mkdirSync(join(dir, 'releases'), { recursive: true });
      // A stand-in for the installer: random bytes large enough to arrive in several chunks.
      const installer = randomBytes(300 * 1024);
      const exeName = `Batchroom-${release.version}-win-x64.exe`;
      const zipName = `Batchroom-${release.version}-mac-arm64.zip`;
      for (const name of [exeName, zipName]) {
        writeFileSync(join(dir, 'releases', name), installer);
        writeFileSync(join(dir, 'releases', `${name}.blockmap`), blockmapOf(installer));
      }
      const published = release.wrongSha512 ? sha512(Buffer.concat([installer, Buffer.from('tampered')])) : sha512(installer);
      const common = {
        version: release.version,
        releaseDate: '2026-11-27T10:00:00.000Z',
        ...(release.releaseNotes ? { releaseNotes: release.releaseNotes } : {}),
        ...(release.stagingPercentage !== undefined ? { stagingPercentage: release.stagingPercentage } : {}),
      };
      const channel = release.channel ?? 'latest';
      writeFileSync(join(dir, 'releases', `${channel}.yml`), stringify({
        ...common, files: [{ url: exeName, sha512: published, size: installer.length }], path: exeName, sha512: published,
      }));
      writeFileSync(join(dir, 'releases', `${channel}-mac.yml`), stringify({
        ...common, files: [{ url: zipName, sha512: published, size: installer.length }], path: zipName, sha512: published,
      }));
      return { installer, exeName, zipName };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The native installer stand-in: records what it was asked to run (and the bytes it found there), runs nothing. */
export function recordingInstaller(): NativeInstaller & { runs: Array<{ path: string; bytes: Buffer; isSilent: boolean; isForceRunAfter: boolean }> } {
  const runs: Array<{ path: string; bytes: Buffer; isSilent: boolean; isForceRunAfter: boolean }> = [];
  return {
    runs,
    install(path, options) {
      runs.push({ path, bytes: readFileSync(path), ...options });
      return true;
    },
  };
}
