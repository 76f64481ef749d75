// The S3 driver's clean-up after a conversion (issue 18): the worker's downloaded copies and
// scratch outputs go, anything else in the item's working folder (a poster being received for
// the same item) stays, and the folder goes once it is empty.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';

test('releaseLocal removes only the worker’s files, then the emptied folder', async () => {
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-local-'));
  process.env.MEDIA_DIR = mediaDir;
  const { s3Storage } = await import('../../src/server/storage/s3.ts');
  const key = 'ab'.repeat(16);
  const dir = path.join(mediaDir, key);
  fs.mkdirSync(dir);
  for (const name of ['original.mp4', '720p.mp4', '.tmp-1a2b.job.mp4', 'original.mp4.download-42', '.tmp-3c4d']) fs.writeFileSync(path.join(dir, name), 'x');

  await s3Storage.releaseLocal(key);
  expect(fs.readdirSync(dir)).toEqual(['.tmp-3c4d']); // the poster upload in progress is left alone

  fs.rmSync(path.join(dir, '.tmp-3c4d'));
  await s3Storage.releaseLocal(key);
  expect(fs.existsSync(dir)).toBe(false);
  fs.rmSync(mediaDir, { recursive: true, force: true });
});
