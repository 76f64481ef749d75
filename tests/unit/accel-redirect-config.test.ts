// ACCEL_REDIRECT (issue 33): off by default, `true` names the shipped /_protected/ location,
// anything else must be a plain path starting and ending with a slash.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';
import { configSchema } from '../../src/server/config.ts';

const parse = (v: string | undefined) => configSchema.shape.ACCEL_REDIRECT.safeParse(v);

test.each([
  [undefined, null],
  ['', null],
  ['false', null],
  ['off', null],
  ['true', '/_protected/'],
  ['on', '/_protected/'],
  ['/internal/media/', '/internal/media/'],
])('%j → %j', (value, expected) => {
  const r = parse(value);
  expect(r.success).toBe(true);
  expect(r.data).toBe(expected);
});

test.each(['/_protected', '_protected/', '/../x/', '/a b/', 'http://x/', '/a?b/'])('%j is refused', (value) => {
  expect(parse(value).success).toBe(false);
});

test('the start stops when ACCEL_REDIRECT is set with MEDIA_STORAGE=s3 (S3 stays on presigned redirects)', () => {
  const config = path.resolve(import.meta.dirname, '../../src/server/config.ts');
  const run = (extra: Record<string, string>) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(config)})`], {
      env: { PATH: process.env.PATH, MEDIA_STORAGE: 's3', S3_BUCKET: 'studio', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', ...extra },
      encoding: 'utf8',
    });
  const refused = run({ ACCEL_REDIRECT: 'true' });
  expect(refused.status).not.toBe(0);
  expect(refused.stderr).toContain('ACCEL_REDIRECT: only with MEDIA_STORAGE=local');
  expect(run({ ACCEL_REDIRECT: 'false' }).status).toBe(0);
});
