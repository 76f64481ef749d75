// A key file others may read (issue 40, item 8): the share-link key opens every link address
// kept in the database, so a copy left 0644 (the usual umask) stops start-up saying how to fix
// it, unless ALLOW_OPEN_KEY_FILE=true says it is meant so; then the start-up log warns.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, expect, test } from 'vitest';
import { ADMIN, startServer } from '../helpers/server.ts';
import { staffSession } from '../helpers/http.ts';
import { uploadImage } from '../helpers/media-uploads.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh data folder whose key file holds a good key with `mode`. */
function folderWithKey(mode: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-key-mode-'));
  dirs.push(dir);
  const file = path.join(dir, 'share-link.key');
  const key = randomBytes(32).toString('hex') + '\n';
  fs.writeFileSync(file, key);
  fs.chmodSync(file, mode);
  return { dir, file, key };
}

test.each([
  ['0644', 'read', 0o644],
  ['0640', 'read', 0o640],
  ['0666', 'change', 0o666],
] as const)('a key file with mode %s stops start-up: others can %s it', async (_label, verb, mode) => {
  const { dir, file, key } = folderWithKey(mode);
  const started = await startServer({ dir }).catch((e: Error) => e);
  // A server that did start is stopped before anything is judged.
  if (!(started instanceof Error)) await started.stop();
  expect(started).toBeInstanceOf(Error);
  expect((started as Error).message).toMatch(
    new RegExp(`SHARE_LINK_KEY_FILE: the share-link key file .*share-link\\.key has mode 0${mode.toString(8)}: other users of this machine can ${verb} it.*Run chmod 600 .*share-link\\.key, or set ALLOW_OPEN_KEY_FILE=true`),
  );
  // Left as it was: the app neither rewrites nor "fixes" a file it was given.
  expect(fs.readFileSync(file, 'utf8')).toBe(key);
  expect(fs.statSync(file).mode & 0o777).toBe(mode);
}, 60_000);

test('ALLOW_OPEN_KEY_FILE=true starts with a warning naming the file; at 0600 there is none', async () => {
  const { dir, file } = folderWithKey(0o644);
  const server = await startServer({ dir, env: { ALLOW_OPEN_KEY_FILE: 'true' } });
  try {
    expect(server.output()).toMatch(/Warning: the share-link key file .*share-link\.key has mode 0644: .*ALLOW_OPEN_KEY_FILE=true/);
    const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const made = await admin.json('POST', '/api/share-links', { name: 'Open key', mediaIds: [(await uploadImage(admin)).id] });
    expect(made.status).toBe(201);
    expect((await admin.json('POST', `/api/share-links/${made.body.id}/address`)).body.url).toBe(made.body.url);
    await server.stop();
    fs.chmodSync(file, 0o600);
    const closed = await startServer({ dir });
    try {
      expect(closed.output()).not.toMatch(/share-link key file/);
    } finally {
      await closed.stop();
    }
  } finally {
    await server.stop();
  }
}, 90_000);
