// Starts the real built server (scripts/start.mjs --no-build) on a fresh temporary database
// and media folder. Every test file gets its own. Run `npm run build` first (npm test does).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type Client } from '@libsql/client';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const OUT_DIR = path.resolve(ROOT, process.env.STUDIO_OUT_DIR || 'dist');
export const ADMIN = { username: 'admin', email: 'admin@studio.test', password: 'admin-password-123' };
export const DEMO_CLIENT = { username: 'demo.client', password: 'portal-demo-2026' };

export interface TestServer {
  url: string;
  port: number;
  dir: string;
  dbFile: string;
  mediaDir: string;
  proc: ChildProcess;
  output: () => string;
  /** A separate libSQL connection to the same file, for assertions and set-up. */
  sql: Client;
  stop: () => Promise<void>;
  /** Stops (SIGKILL) without cleaning up, for fault tests. */
  kill: () => Promise<void>;
  /** Starts the server again on the same database and media folder. */
  restart: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse an existing folder (database and media) instead of a new temporary one. */
  dir?: string;
}

function launch(dir: string, env: Record<string, string>): Promise<{ proc: ChildProcess; port: number; output: () => string }> {
  if (!fs.existsSync(path.join(OUT_DIR, 'server', 'entry.mjs'))) {
    throw new Error(`No build in ${OUT_DIR}: run "npm run build" first.`);
  }
  const proc = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs'), '--no-build'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${path.join(dir, 'studio.db')}`,
      MEDIA_DIR: path.join(dir, 'media'),
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_CONTENT: 'false',
      STUDIO_OUT_DIR: OUT_DIR,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`Server did not start in time:\n${out}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = out.match(/STUDIO_LISTENING (\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, port: Number(m[1]), output: () => out });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Server exited with ${code}:\n${out}`));
    });
  });
}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'studio-test-'));
  const env = opts.env ?? {};
  let { proc, port, output } = await launch(dir, env);
  const dbFile = path.join(dir, 'studio.db');
  const sql = createClient({ url: `file:${dbFile}` });
  await sql.execute('PRAGMA busy_timeout = 5000');
  const server: TestServer = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    dir,
    dbFile,
    mediaDir: path.join(dir, 'media'),
    get proc() {
      return proc;
    },
    output: () => output(),
    sql,
    async stop() {
      sql.close();
      await stopProcess(proc, 'SIGTERM');
      if (!opts.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      await stopProcess(proc, 'SIGKILL');
    },
    async restart() {
      ({ proc, port, output } = await launch(dir, env));
    },
  } as TestServer;
  return server;
}

function stopProcess(proc: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.removeAllListeners('exit');
    proc.once('exit', () => resolve());
    proc.kill(signal);
    setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
  });
}
