// `npm run audit:verify` (scripts/audit-verify.mjs) on a test server's database (issue 56).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './server.ts';

export function verifyAudit(databaseUrl: string) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'scripts/audit-verify.mjs')], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } });
    let out = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (out += c));
    // A command that hangs fails the test with what it printed, not a bare timeout.
    const timer = setTimeout(() => p.kill('SIGKILL'), 20_000);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: code === null ? `${out}\n(killed after 20 s)` : out });
    });
  });
}
