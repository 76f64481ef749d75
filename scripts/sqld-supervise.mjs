#!/usr/bin/env node
// Keeps a sqld primary writing (issue 51). sqld 0.24.32 can stop every write for good while
// still answering reads: its write-lock queue keeps the place of a writer that has left, and the
// lock waits for it forever (docs/database.md, "The checkpoint hang"). Timed checkpoints make
// that rare, not impossible; only a restart ends it. This runs sqld as its child, asks it for
// its write lock every few seconds (BEGIN IMMEDIATE, then ROLLBACK: nothing is written) and,
// when that has had no answer for STALL seconds while a read still answers, kills it and starts
// it again on the same data (a committed transaction survives SIGKILL). A healthy sqld answers
// a writer within about 5 s even when busy: SQLITE_BUSY is an answer. A sqld that answers
// nothing at all (hung some other way, or a machine too busy for a moment) is given HUNG
// seconds before the same restart. When sqld exits by itself this exits with it, and systemd
// restarts the unit (deploy/systemd/studio-sqld.service).
//
//   node scripts/sqld-supervise.mjs [--stall-seconds 10] [--hung-seconds 30] [--probe-seconds 2] -- SQLD [ARGS...]
//
// The probes go to sqld's HTTP address (--http-listen-addr, or SQLD_HTTP_LISTEN_ADDR as sqld
// reads it; 127.0.0.1:8080 by default), with DATABASE_AUTH_TOKEN when sqld requires a token.
// tests/api/sqld-stall.test.ts runs `supervise` on a sqld that is made to stall.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitHealthy } from './sqld.mjs';

/** A write that had no answer this long, while a read answers, means the lock is stuck. */
export const STALL_SECONDS = 10;
/** A sqld that answers neither writes nor reads this long is hung some other way: restarted too. */
export const HUNG_SECONDS = 30;
/** How often sqld is asked for its write lock. */
export const PROBE_SECONDS = 2;

/**
 * Sends statements as one Hrana pipeline (one HTTP request, its own stream) and answers
 * 'answered' (whatever sqld said, errors included), 'late' (no answer in `ms`) or 'unreachable'.
 */
async function pipeline(url, authToken, statements, ms) {
  const requests = [...statements.map((sql) => ({ type: 'execute', stmt: { sql } })), { type: 'close' }];
  try {
    const res = await fetch(`${url}/v2/pipeline`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(authToken ? { Authorization: `Bearer ${authToken}` } : {}) },
      body: JSON.stringify({ baton: null, requests }),
      signal: AbortSignal.timeout(ms),
    });
    await res.arrayBuffer();
    return 'answered';
  } catch (e) {
    return e?.name === 'TimeoutError' ? 'late' : 'unreachable';
  }
}

export const writeProbe = (url, authToken, ms) => pipeline(url, authToken, ['BEGIN IMMEDIATE', 'ROLLBACK'], ms);
// A read of the file (the schema), not `SELECT 1`, which answers without it.
export const readProbe = (url, authToken, ms) => pipeline(url, authToken, ['SELECT count(*) FROM sqlite_schema'], ms);

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Runs sqld (`start()` starts one and resolves once it answers: `{ exited, stop(signal) }`) and
 * restarts it whenever its writes stall. Resolves with the exit of a sqld that ended by itself,
 * or null once `signal` aborts (sqld is then stopped with SIGTERM).
 */
export async function supervise({ start, url, authToken, stallSeconds = STALL_SECONDS, hungSeconds = HUNG_SECONDS, probeSeconds = PROBE_SECONDS, log = console.log, signal }) {
  let sqld = null;
  let exited = null;
  const run = async () => {
    const p = await start();
    sqld = p;
    // Only the sqld running now: the one killed for stalling ended on purpose.
    p.exited.then((e) => (p === sqld ? (exited = e) : null));
  };
  await run();
  const stallMs = stallSeconds * 1000;
  let silentSince = null;
  while (!signal?.aborted) {
    await Promise.race([sleep(probeSeconds * 1000, signal), sqld.exited]);
    if (exited) return exited;
    if (signal?.aborted) break;
    const sent = Date.now();
    if ((await writeProbe(url, authToken, stallMs)) !== 'late' || exited || signal?.aborted) {
      silentSince = null;
      continue;
    }
    if ((await readProbe(url, authToken, stallMs)) === 'answered') {
      log(`sqld writes stalled: a write waited ${stallSeconds} s without an answer while reads answer; restarting sqld`);
    } else {
      // Answering nothing at all may be a machine too busy for a while: given longer.
      silentSince ??= sent;
      if (Date.now() - silentSince < hungSeconds * 1000) continue;
      log(`sqld answered neither a write nor a read for ${Math.round((Date.now() - silentSince) / 1000)} s; restarting sqld`);
    }
    silentSince = null;
    const stalled = sqld;
    sqld = null;
    await stalled.stop('SIGKILL');
    await run();
    while ((await writeProbe(url, authToken, stallMs)) !== 'answered' && !exited) await sleep(100);
    log(`sqld restarted: writes answer again ${((Date.now() - sent) / 1000).toFixed(1)} s after the probe that found them stalled`);
  }
  await sqld.stop('SIGTERM');
  return null;
}

/** sqld's HTTP address as sqld itself takes it: its argument, else its environment variable. */
function httpAddress(args) {
  const i = args.indexOf('--http-listen-addr');
  const addr = i >= 0 ? args[i + 1] : (process.env.SQLD_HTTP_LISTEN_ADDR ?? '127.0.0.1:8080');
  // Listening on every address: probe it on loopback.
  return `http://${addr.replace(/^0\.0\.0\.0:/, '127.0.0.1:').replace(/^\[::\]:/, '[::1]:')}`;
}

// Run as a command (not imported).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { parseArgs } = await import('node:util');
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'stall-seconds': { type: 'string' }, 'hung-seconds': { type: 'string' }, 'probe-seconds': { type: 'string' } },
  });
  const [binary, ...args] = positionals;
  if (!binary) {
    console.error('Usage: node scripts/sqld-supervise.mjs [--stall-seconds 10] [--hung-seconds 30] [--probe-seconds 2] -- SQLD [ARGS...]');
    process.exit(2);
  }
  const url = httpAddress(args);
  const log = (line) => console.log(`[sqld-supervise] ${line}`);
  const stopping = new AbortController();
  for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => stopping.abort());
  const start = async () => {
    const proc = spawn(binary, args, { stdio: 'inherit' });
    const exited = new Promise((resolve) => proc.once('exit', (code, sig) => resolve({ code, signal: sig })));
    const stop = (sig) => (proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : (proc.kill(sig), exited.then(() => undefined)));
    // Up to the unit's start timeout: a large WAL is replayed before sqld answers.
    if (!(await Promise.race([waitHealthy(url, 90_000), exited.then(() => false)]))) {
      await stop('SIGKILL');
      const e = await exited;
      log(`sqld did not start (${e.signal ?? `exit code ${e.code}`})`);
      process.exit(1);
    }
    return { exited, stop };
  };
  const ended = await supervise({
    start,
    url,
    authToken: process.env.DATABASE_AUTH_TOKEN,
    stallSeconds: Number(values['stall-seconds'] ?? STALL_SECONDS),
    hungSeconds: Number(values['hung-seconds'] ?? HUNG_SECONDS),
    probeSeconds: Number(values['probe-seconds'] ?? PROBE_SECONDS),
    log,
    signal: stopping.signal,
  });
  process.exit(ended ? (ended.code ?? 1) : 0);
}
