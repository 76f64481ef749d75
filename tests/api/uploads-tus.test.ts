// /api/uploads (tus 1.0) and finishing with POST /api/media (JSON): resume after a cut
// connection and after SIGKILL, byte-identical originals, and the rules (owner only, limits,
// open-upload cap, expiry, cross-site) on every request.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readStored, stagedUploadBytes, startServer, uploadStaged, usesS3, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { adminSession, createClientAccount, staffWith } from '../helpers/accounts.ts';
import { clientSession } from '../helpers/http.ts';
import { TUS, createUpload, headOffset, partialPatch, patchUpload, serverHasRead, sha256 } from '../helpers/tus.ts';
import { until } from '../helpers/until.ts';

const LIMIT = 8 * 1024 * 1024;
let server: TestServer;
let admin: Session;
let uploader: Session;
let other: Session;
let noisy: Buffer;

/** A JPEG of random noise (so it barely compresses): a few MB, a real image to ingest. */
async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i += 4096) raw.set(crypto.getRandomValues(new Uint8Array(Math.min(4096, raw.length - i))), i);
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
}

const stagingDir = () => path.join(server.mediaDir, '.uploads');

async function finish(s: Session, body: Record<string, unknown>) {
  return s.json('POST', '/api/media', body);
}

async function fullUpload(s: Session, data: Uint8Array) {
  const { res, id } = await createUpload(s, data.length, { filename: 'noise.jpg' });
  expect(res.status).toBe(201);
  const r = await patchUpload(s, id!, 0, data);
  expect(r.status).toBe(204);
  return id!;
}

function rebase(old: Session): Session {
  const s = new Session(server.url);
  for (const [k, v] of old.cookies) s.cookies.set(k, v);
  return s;
}

async function storedOriginal(url: string): Promise<Buffer> {
  const m = url.match(/^\/media\/([a-f0-9]{32})\/(original\.[a-z0-9]+)$/)!;
  return (await readStored(server, m[1]!, m[2]!))!;
}

beforeAll(async () => {
  server = await startServer({ env: { MEDIA_MAX_BYTES: String(LIMIT) } });
  admin = await adminSession(server.url);
  uploader = await staffWith(server.url, admin, ['upload:media', 'view:media']);
  other = await staffWith(server.url, admin, ['upload:media']);
  noisy = await noiseJpeg(2000, 1500);
  expect(noisy.length).toBeGreaterThan(2 * 1024 * 1024);
  expect(noisy.length).toBeLessThan(LIMIT);
});
afterAll(() => server?.stop());

describe('resuming', () => {
  test('create, send half, cut the connection, HEAD gives the persisted offset, send the rest, finish: byte-identical', async () => {
    const half = Math.floor(noisy.length / 2);
    const { res, id, location } = await createUpload(uploader, noisy.length, { filename: 'noise.jpg', filetype: 'image/jpeg' });
    expect(res.status).toBe(201);
    expect(location).toBe(`/api/uploads/${id}`);
    expect(res.headers.get('upload-expires')).toBeTruthy();

    // The first half arrives whole; the second PATCH is cut after another quarter.
    expect((await patchUpload(uploader, id!, 0, noisy.subarray(0, half))).status).toBe(204);
    expect(await stagedUploadBytes(server, id!)).toBe(half);
    const rest = noisy.subarray(half);
    const quarter = Math.floor(rest.length / 2);
    await partialPatch(uploader, id!, half, rest, quarter, async (req) => {
      // On disk the staged file grows as bytes arrive; the S3 driver keeps a request's bytes
      // in a local chunk until the request ends, so there the cut comes once the server has
      // read them.
      if (usesS3) await serverHasRead(req);
      else await until('the quarter staged', async () => (await stagedUploadBytes(server, id!))! >= half + quarter, 10_000);
      req.destroy();
    });

    const head = await headOffset(uploader, id!);
    expect(head.res.status).toBe(200);
    expect(head.res.headers.get('upload-length')).toBe(String(noisy.length));
    expect(head.offset).toBeGreaterThanOrEqual(half);
    expect(head.offset).toBeLessThanOrEqual(half + quarter);
    expect(head.offset).toBe(await stagedUploadBytes(server, id!));

    const done = await patchUpload(uploader, id!, head.offset, noisy.subarray(head.offset));
    expect(done.status).toBe(204);
    expect(done.headers.get('upload-offset')).toBe(String(noisy.length));

    const item = await finish(uploader, { uploadId: id, title: 'Resumed still', tags: ['noise', 'tus'], isFeatured: false });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    expect(item.body).toMatchObject({ title: 'Resumed still', type: 'image', mimeType: 'image/jpeg', fileSize: noisy.length, filename: 'noise.jpg', tags: ['noise', 'tus'] });
    expect(sha256(await storedOriginal(item.body.url))).toBe(sha256(noisy));
    // Nothing is left in staging (on disk the staged bytes were moved, not copied).
    expect(fs.existsSync(stagingDir()) ? fs.readdirSync(stagingDir()).filter((n) => n.startsWith(id!)) : []).toEqual([]);
    expect(await uploadStaged(server, id!)).toBe(false);
    const row = await server.sql.execute({ sql: 'SELECT media_id FROM uploads WHERE id = ?', args: [id!] });
    expect(Number(row.rows[0]!.media_id)).toBe(item.body.id);

    // Finishing twice: 409; the finished upload is gone for the tus protocol.
    const again = await finish(uploader, { uploadId: id, title: 'Again' });
    expect(again.status).toBe(409);
    expect((await headOffset(uploader, id!)).res.status).toBe(404);
  });

  test('creation-with-upload: the first bytes come with the POST', async () => {
    const res = await uploader.request('POST', '/api/uploads', noisy.subarray(0, 1000), {
      ...TUS,
      'Content-Type': 'application/offset+octet-stream',
      'Upload-Length': String(noisy.length),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('upload-offset')).toBe('1000');
    const id = res.headers.get('location')!.split('/').pop()!;
    expect((await headOffset(uploader, id)).offset).toBe(1000);
    expect((await uploader.request('DELETE', `/api/uploads/${id}`, undefined, TUS)).status).toBe(204);
  });

  test('SIGKILL in the middle of a chunk: after restart HEAD is at most the bytes kept and the upload completes byte-identical', async () => {
    const { id } = await createUpload(uploader, noisy.length, { filename: 'killed.jpg' });
    const sent = Math.floor(noisy.length * 0.6);
    await partialPatch(uploader, id!, 0, noisy, sent, async (req) => {
      // Killed while the chunk is under way: on disk half of it staged; under the S3 driver
      // (nothing in the bucket before the request ends) once the server has read it.
      if (usesS3) await serverHasRead(req);
      else await until('half the chunk staged', async () => (await stagedUploadBytes(server, id!))! >= sent / 2, 10_000);
      await server.kill();
    });
    await server.restart();
    // The restarted server listens on a new port; the sessions (in the database) live on.
    [admin, uploader, other] = [admin, uploader, other].map(rebase);
    const s = uploader;

    const kept = (await stagedUploadBytes(server, id!))!;
    const head = await headOffset(s, id!);
    expect(head.res.status).toBe(200);
    // On disk the bytes that reached the file survive; the S3 driver's unsent chunk dies with the process.
    if (!usesS3) expect(head.offset).toBeGreaterThan(0);
    expect(head.offset).toBeLessThanOrEqual(kept);

    expect((await patchUpload(s, id!, head.offset, noisy.subarray(head.offset))).status).toBe(204);
    const item = await finish(s, { uploadId: id, title: 'Survived a crash' });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    expect(sha256(await storedOriginal(item.body.url))).toBe(sha256(noisy));
  });
});

describe('rules', () => {
  test('a wrong Upload-Offset answers 409 and changes nothing', async () => {
    const { id } = await createUpload(uploader, 100);
    expect((await patchUpload(uploader, id!, 0, new Uint8Array(10))).status).toBe(204);
    const res = await patchUpload(uploader, id!, 5, new Uint8Array(10));
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/Upload-Offset/);
    expect((await headOffset(uploader, id!)).offset).toBe(10);
    await uploader.request('DELETE', `/api/uploads/${id}`, undefined, TUS);
  });

  test("another user's upload is 404 for HEAD, PATCH, DELETE and finishing", async () => {
    const { id } = await createUpload(uploader, 100);
    expect((await headOffset(other, id!)).res.status).toBe(404);
    expect((await patchUpload(other, id!, 0, new Uint8Array(10))).status).toBe(404);
    expect((await other.request('DELETE', `/api/uploads/${id}`, undefined, TUS)).status).toBe(404);
    expect((await finish(other, { uploadId: id, title: 'Mine now' })).status).toBe(404);
    // Untouched for its owner.
    expect((await headOffset(uploader, id!)).offset).toBe(0);
    expect((await uploader.request('DELETE', `/api/uploads/${id}`, undefined, TUS)).status).toBe(204);
    expect(await uploadStaged(server, id!)).toBe(false);
    expect((await server.sql.execute({ sql: 'SELECT 1 FROM uploads WHERE id = ?', args: [id!] })).rows).toHaveLength(0);
  });

  // The library once read the id from the last '/' of the whole URL (query included) while the
  // ownership check read the path: `<own id>?x=/<victim id>` reached the victim's upload.
  test.each(['HEAD', 'PATCH', 'DELETE'])("%s with a query string naming another user's upload: 400, and the other upload is untouched", async (method) => {
    const victim = await createUpload(uploader, 100);
    const own = await createUpload(other, 100);
    const path = `/api/uploads/${own.id}?x=/${victim.id}`;
    const headers = method === 'PATCH' ? { ...TUS, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' } : TUS;
    const res = await other.request(method, path, method === 'PATCH' ? new Uint8Array(10) : undefined, headers);
    expect(res.status).toBe(400);
    if (method !== 'HEAD') expect((await res.json()).message).toMatch(/query string/);
    expect((await headOffset(uploader, victim.id!)).offset).toBe(0);
    expect((await headOffset(other, own.id!)).offset).toBe(0);
    expect(await uploadStaged(server, victim.id!)).toBe(true);
    // And the path alone still decides, whatever the library would read: its own upload only.
    expect((await other.request('HEAD', `/api/uploads/${victim.id}/`, undefined, TUS)).status).toBe(404);
    for (const id of [victim.id, own.id]) await (id === victim.id ? uploader : other).request('DELETE', `/api/uploads/${id}`, undefined, TUS);
  });

  test.each([
    ['no session', 401],
    ['a client session', 401],
    ['staff without upload:media', 403],
  ])('%s: %i, for creating and for continuing', async (who, status) => {
    const { id } = await createUpload(uploader, 100);
    let s: Session;
    if (who === 'no session') s = new Session(server.url);
    else if (who === 'a client session') {
      const c = await createClientAccount(admin);
      s = await clientSession(server.url, c.username, c.password);
    } else s = await staffWith(server.url, admin, ['view:media']);
    const created = await createUpload(s, 100);
    expect(created.res.status).toBe(status);
    expect((await created.res.json()).message).toBeTruthy();
    expect((await headOffset(s, id!)).res.status).toBe(status);
    expect((await patchUpload(s, id!, 0, new Uint8Array(10))).status).toBe(status);
    expect((await finish(s, { uploadId: id, title: 'x' })).status).toBe(status);
    await uploader.request('DELETE', `/api/uploads/${id}`, undefined, TUS);
  });

  test('over the limit: 413 naming the limit, and nothing is created', async () => {
    const before = (await server.sql.execute('SELECT count(*) AS n FROM uploads')).rows[0]!.n;
    const { res } = await createUpload(uploader, LIMIT + 1);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe('The file is too large: the limit is 8 MB.');
    expect((await server.sql.execute('SELECT count(*) AS n FROM uploads')).rows[0]!.n).toBe(before);
  });

  test('more bytes than the declared length: 413', async () => {
    const { id } = await createUpload(uploader, 10);
    expect((await patchUpload(uploader, id!, 0, new Uint8Array(20))).status).toBe(413);
    await uploader.request('DELETE', `/api/uploads/${id}`, undefined, TUS);
  });

  test('Upload-Length is required (no deferred length)', async () => {
    const res = await uploader.request('POST', '/api/uploads', undefined, { ...TUS, 'Upload-Defer-Length': '1' });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/Upload-Length/);
  });

  test('a sixth unfinished upload is 429; cancelling one frees a place', async () => {
    const s = await staffWith(server.url, admin, ['upload:media']);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { res, id } = await createUpload(s, 100);
      expect(res.status).toBe(201);
      ids.push(id!);
    }
    const sixth = await createUpload(s, 100);
    expect(sixth.res.status).toBe(429);
    expect((await sixth.res.json()).message).toMatch(/5 unfinished uploads/);
    // Another user is not affected.
    const theirs = await createUpload(other, 100);
    expect(theirs.res.status).toBe(201);
    await other.request('DELETE', `/api/uploads/${theirs.id}`, undefined, TUS);

    expect((await s.request('DELETE', `/api/uploads/${ids[0]}`, undefined, TUS)).status).toBe(204);
    expect((await createUpload(s, 100)).res.status).toBe(201);
  });

  test('expired uploads are swept: files and record gone, and they no longer answer', async () => {
    const { id } = await createUpload(uploader, 100);
    expect((await patchUpload(uploader, id!, 0, new Uint8Array(50))).status).toBe(204);
    expect(await uploadStaged(server, id!)).toBe(true);
    await server.sql.execute({ sql: 'UPDATE uploads SET expires_at = ? WHERE id = ?', args: [Date.now() - 1000, id!] });
    // Expired means gone even before the sweep runs.
    expect((await headOffset(uploader, id!)).res.status).toBe(404);
    // Every new upload sweeps first.
    const next = await createUpload(uploader, 100);
    expect(next.res.status).toBe(201);
    expect(await uploadStaged(server, id!)).toBe(false);
    expect(fs.existsSync(path.join(stagingDir(), `${id}.json`))).toBe(false);
    expect((await server.sql.execute({ sql: 'SELECT 1 FROM uploads WHERE id = ?', args: [id!] })).rows).toHaveLength(0);
    await uploader.request('DELETE', `/api/uploads/${next.id}`, undefined, TUS);
  });

  test.each(['PATCH', 'DELETE', 'POST'])('cross-site %s is refused (403)', async (method) => {
    const { id } = await createUpload(uploader, 100);
    const target = method === 'POST' ? '/api/uploads' : `/api/uploads/${id}`;
    const res = await uploader.request(method, target, method === 'PATCH' ? new Uint8Array(10) : undefined, {
      ...TUS,
      'Content-Type': 'application/offset+octet-stream',
      'Upload-Offset': '0',
      'Upload-Length': '100',
      Origin: 'https://evil.example',
    });
    expect(res.status).toBe(403);
    expect((await headOffset(uploader, id!)).offset).toBe(0);
    await uploader.request('DELETE', `/api/uploads/${id}`, undefined, TUS);
  });

  test('answers carry no CORS headers (same origin only)', async () => {
    const { res, id } = await createUpload(uploader, 100);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    await uploader.request('DELETE', `/api/uploads/${id}`, undefined, TUS);
  });
});

describe('finishing', () => {
  test('an unfinished upload: 409, and it can still be completed and finished', async () => {
    const data = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } }).png().toBuffer();
    const { id } = await createUpload(uploader, data.length, { filename: 'small.png' });
    expect((await patchUpload(uploader, id!, 0, data.subarray(0, 10))).status).toBe(204);
    const early = await finish(uploader, { uploadId: id, title: 'Too soon' });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/not complete/);
    expect((await patchUpload(uploader, id!, 10, data.subarray(10))).status).toBe(204);
    // upload:media alone may not publish (issue 40): refused, and the upload stays finishable.
    const publish = await finish(uploader, { uploadId: id, title: 'Small', isFeatured: true, showInPortfolio: true });
    expect(publish.status).toBe(403);
    expect(publish.body.message).toMatch(/needs edit:media/);
    const ok = await finish(uploader, { uploadId: id, title: 'Small', projectStage: 'production', notes: 'n' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ type: 'image', mimeType: 'image/png', width: 64, height: 48, isFeatured: false, showInPortfolio: false, projectStage: 'production', notes: 'n' });
    expect(sha256(await storedOriginal(ok.body.url))).toBe(sha256(data));
  });

  test.each([
    [{ title: '' }, /^title: /],
    [{ title: 'x', isFeatured: 'yes' }, /^isFeatured: /],
    [{ title: 'x', projectStage: 'someday' }, /^projectStage: /],
    [{ title: 'x', clientId: 'abc' }, /^clientId: /],
    [{ title: 'x', tags: 7 }, /^tags: /],
    [{ title: 'x', colour: 'red' }, /colour/],
    [{ title: 'x', clientId: 999999 }, /^clientId: Unknown client/],
  ] as [Record<string, unknown>, RegExp][])('bad fields %j: 400 naming the field; the upload stays finishable', async (fields, message) => {
    const id = await fullUpload(uploader, await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } }).jpeg().toBuffer());
    const r = await finish(uploader, { uploadId: id, ...fields });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
    const ok = await finish(uploader, { uploadId: id, title: 'Fixed' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  test('an upload id that names nothing: 400 for a malformed one, 404 for an unknown one', async () => {
    expect((await finish(uploader, { uploadId: 'nope', title: 'x' })).status).toBe(400);
    expect((await finish(uploader, { uploadId: 'a'.repeat(32), title: 'x' })).status).toBe(404);
  });

  test('content that is not an image or video: 415, and the staged upload is removed', async () => {
    const junk = new TextEncoder().encode('#!/bin/sh\necho this is not a video\n'.repeat(20));
    const id = await fullUpload(uploader, junk);
    const r = await finish(uploader, { uploadId: id, title: 'Script' });
    expect(r.status).toBe(415);
    expect(r.body.message).toMatch(/Unsupported file type/);
    expect(await uploadStaged(server, id)).toBe(false);
    expect((await finish(uploader, { uploadId: id, title: 'Script' })).status).toBe(404);
  });

  test('the multipart POST /api/media still works next to the JSON one', async () => {
    const data = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#123456' } }).jpeg().toBuffer();
    const fd = new FormData();
    fd.append('title', 'Multipart');
    fd.append('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'm.jpg');
    const res = await uploader.request('POST', '/api/media', fd);
    expect(res.status).toBe(201);
    expect((await res.json()).title).toBe('Multipart');
  });
});
