// Starts and stops a throw-away single-node Ceph radosgw (scripts/radosgw) for tests and
// benches; answers the S3_* settings that reach it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RadosgwEnv {
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_FORCE_PATH_STYLE: string;
  /** A bucket the script made, so its output alone is enough to start the app. */
  S3_BUCKET: string;
}

const script = path.resolve(import.meta.dirname, '../../scripts/radosgw');

export function startRadosgw(extraEnv: Record<string, string> = {}): { env: RadosgwEnv; stop: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'radosgw-'));
  // The daemons' start-up chatter stays out of reports; the script prints their logs when it fails.
  const out = execFileSync('bash', [script, 'start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000, env: { ...process.env, ...extraEnv } });
  const env = Object.fromEntries(
    out
      .split('\n')
      .map((l) => /^(S3_[A-Z_]+)=(.*)$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => [m[1]!, m[2]!]),
  ) as unknown as RadosgwEnv;
  if (!env.S3_ENDPOINT) throw new Error(`radosgw did not start:\n${out}`);
  return { env, stop: () => execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore', timeout: 60_000 }) };
}
