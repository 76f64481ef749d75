// Vitest global set-up: one real Ceph radosgw (Debian's ceph-mon, ceph-osd, radosgw; started by
// scripts/radosgw) for the whole run, shared by every test file that stores media in S3. Each
// such test makes its own bucket (tests/helpers/s3.ts). No fake S3 servers.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

export interface RadosgwEnv {
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_FORCE_PATH_STYLE: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    radosgw: RadosgwEnv;
  }
}

const script = path.resolve(import.meta.dirname, '../../scripts/radosgw');

export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'radosgw-'));
  // The daemons' start-up chatter stays out of the test report; the script prints their logs when it fails.
  const out = execFileSync('bash', [script, 'start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  const env = Object.fromEntries(
    out
      .split('\n')
      .map((l) => /^(S3_[A-Z_]+)=(.*)$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => [m[1], m[2]]),
  ) as unknown as RadosgwEnv;
  if (!env.S3_ENDPOINT) throw new Error(`radosgw did not start:\n${out}`);
  project.provide('radosgw', env);
  return () => {
    execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore', timeout: 60_000 });
  };
}
