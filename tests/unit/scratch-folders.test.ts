// The test helpers' temporary folders (generated sources, samples, migration copies) are gone
// once the test file that made them ends (issue 51: /tmp/frame-fixture-* piled up run after
// run). A vitest run of a file using each helper, with a temporary folder of its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../helpers/server.ts';

test('a test file using every helper that writes to the temporary folder leaves nothing there', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scratch-check-'));
  try {
    // The run's own vitest variables would make the child think it is one of our workers.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV'));
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'tests/fixtures/scratch/vitest.config.ts'], {
      cwd: ROOT,
      env: { ...env, TMPDIR: tmp },
      stdio: 'pipe',
      timeout: 120_000,
    });
    expect(fs.readdirSync(tmp)).toEqual([]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}, 150_000);
