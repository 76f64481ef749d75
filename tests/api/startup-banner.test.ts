// The start-up banner (issue 39): it printed http://localhost:PORT whatever HOST and SITE_URL
// said. It prints SITE_URL when set (the address people use, and the only origin the
// cross-site check accepts), with the bound address beside it, and otherwise the bound HOST.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ADMIN, startServer } from '../helpers/server.ts';
import { staffSession } from '../helpers/http.ts';

async function banner(env: Record<string, string | undefined>): Promise<{ output: string; port: number }> {
  const server = await startServer({ env: env as Record<string, string> });
  try {
    return { output: server.output(), port: server.port };
  } finally {
    await server.stop();
  }
}

describe('start-up banner', () => {
  test('SITE_URL set: the banner and the first start\'s sign-in line print it, with where it listens', async () => {
    // No ADMIN_PASSWORD: a first start generates one and prints where to sign in.
    const { output, port } = await banner({ SITE_URL: 'https://studio.example.test/', HOST: '127.0.0.1', ADMIN_PASSWORD: undefined });
    expect(output).toContain(`Studio is running at https://studio.example.test (listening on http://127.0.0.1:${port})\n`);
    expect(output).toContain('  Sign in at https://studio.example.test/auth\n');
    expect(output).not.toContain('localhost');
  });

  test('no SITE_URL: the bound HOST, not localhost', async () => {
    const { output, port } = await banner({ HOST: '127.0.0.1' });
    expect(output).toContain(`Studio is running at http://127.0.0.1:${port}\n`);
    expect(output).not.toContain('localhost');
  });

  test('no SITE_URL and the wildcard HOST (every address): localhost', async () => {
    const { output, port } = await banner({ HOST: '0.0.0.0' });
    expect(output).toContain(`Studio is running at http://localhost:${port}\n`);
  });
});

describe('ADMIN_PASSWORD (issue 53)', () => {
  test('the first admin is made only from a password the staff rules take; once it exists, a start ignores it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-admin-password-'));
    try {
      await expect(startServer({ dir, env: { ADMIN_PASSWORD: 'short-admin-pw' } })).rejects.toThrow(/ADMIN_PASSWORD: Password must be at least 15 characters/);
      const first = await startServer({ dir });
      await first.stop();
      // An install made before the rule, whose environment still says an 8-character password.
      const again = await startServer({ dir, env: { ADMIN_PASSWORD: 'short-admin-pw' } });
      try {
        await staffSession(again.url, ADMIN.username, ADMIN.password);
      } finally {
        await again.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
