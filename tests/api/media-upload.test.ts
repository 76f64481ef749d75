// POST /api/media: streaming multipart upload, type by content, limits, derivatives, and
// nothing left behind when an upload fails or is aborted.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { ACTORS, adminSession, createClientWithLogin, matrixFromDb, staffWith, type Actor } from '../helpers/accounts.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import { PUBLISHING_NEEDS_EDIT } from '../../src/server/media/publish-rule.ts';
import { folderFiles, mediaFolders, sampleImage, sampleVideo, upload, type ImageFormat, type VideoFormat } from '../helpers/media-uploads.ts';

const LIMIT = 400_000;
let server: TestServer;
let admin: Session;

beforeAll(async () => {
  // These tests check what an upload stores; the worker's proxies (video-processing.test.ts)
  // would add files to the folders under test, so it is off here.
  server = await startServer({ env: { MEDIA_MAX_BYTES: String(LIMIT), WORKER: 'off' } });
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

async function mediaCount(): Promise<number> {
  const r = await server.sql.execute('SELECT count(*) AS n FROM media');
  return Number(r.rows[0]!.n);
}

/**
 * Waits until nothing is left of failed uploads: the row count is unchanged and the folders
 * under MEDIA_DIR are exactly those of the rows, and stay so for a moment (an aborted
 * request may still be in flight on the server when the client has already given up).
 */
async function expectNothingLeft(rowsBefore: number) {
  const state = async () => {
    const keys = (await server.sql.execute('SELECT storage_key FROM media')).rows.map((r) => String(r.storage_key)).sort();
    return { keys, folders: mediaFolders(server.mediaDir).sort() };
  };
  let stableSince = 0;
  for (let i = 0; i < 100; i++) {
    const { keys, folders } = await state();
    const clean = keys.length === rowsBefore && JSON.stringify(keys) === JSON.stringify(folders);
    if (!clean) stableSince = 0;
    else if (!stableSince) stableSince = Date.now();
    else if (Date.now() - stableSince >= 400) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  const { keys, folders } = await state();
  expect(folders).toEqual(keys);
  expect(keys.length).toBe(rowsBefore);
}

describe('images', () => {
  test.each([
    ['jpeg', 'image/jpeg', 'jpg'],
    ['png', 'image/png', 'png'],
    ['gif', 'image/gif', 'gif'],
    ['webp', 'image/webp', 'webp'],
  ] as [ImageFormat, string, string][])('a %s image is stored with thumbnails and webp versions', async (format, mime, ext) => {
    const data = await sampleImage(format, 1200, 800);
    const r = await upload(admin, { title: `Still ${format}` }, { data, name: `still.${ext}`, type: mime });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const item = r.body;
    expect(item).toMatchObject({ title: `Still ${format}`, type: 'image', mimeType: mime, width: 1200, height: 800, fileSize: data.length, filename: `still.${ext}` });
    expect(item.url).toMatch(new RegExp(`^/media/[a-f0-9]{32}/original\\.${ext}$`));
    expect(folderFiles(server.mediaDir, item.url)).toEqual(['full.webp', `original.${ext}`, 'thumb.jpg', 'thumb.webp'].sort());
    const thumb = await admin.get(item.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta.width).toBe(640);
    const webp = await admin.get(item.webpUrl);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await webp.arrayBuffer())).metadata()).format).toBe('webp');
    expect(item.thumbnailWebpUrl).toMatch(/thumb\.webp$/);
    expect(item.posterUrl).toBeNull();
  });

  test('the type comes from the content, not the name or the declared type', async () => {
    const r = await upload(admin, { title: 'Misnamed' }, { data: await sampleImage('jpeg', 300, 200), name: 'photo.png', type: 'image/png' });
    expect(r.status).toBe(201);
    expect(r.body.mimeType).toBe('image/jpeg');
    expect(r.body.url).toMatch(/original\.jpg$/);
    expect(r.body.filename).toBe('photo.png');
  });

  test('every field is recorded, with the chosen client assigned', async () => {
    const c = await createClientWithLogin(server, { name: 'Upload Client' });
    const r = await upload(
      admin,
      { title: '  Brand film still ', projectStage: 'production', notes: 'Grade warmer', clientId: String(c.clientId), tags: ' corporate, interview ,,Corporate ', isFeatured: 'true', showInPortfolio: 'false' },
      { data: await sampleImage('png', 200, 100), name: '../../etc/passwd.png', type: 'image/png' },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      title: 'Brand film still',
      projectStage: 'production',
      notes: 'Grade warmer',
      clientId: c.clientId,
      tags: ['corporate', 'interview'],
      isFeatured: true,
      showInPortfolio: false,
      filename: 'passwd.png',
      feedbackCount: 0,
      noteCount: 0,
    });
    expect(r.body.assignedClients).toEqual([{ id: c.clientId, name: 'Upload Client', email: c.email }]);
    expect(typeof r.body.uploadedBy).toBe('string');
  });

  test('a second part named file is ignored: one item, no stray files', async () => {
    const fd = new FormData();
    fd.append('title', 'Twice');
    fd.append('file', new Blob([new Uint8Array(await sampleImage('jpeg', 120, 90))]), 'first.jpg');
    fd.append('file', new Blob([new Uint8Array(await sampleImage('png', 60, 60))]), 'second.png');
    const res = await admin.request('POST', '/api/media', fd);
    const body = await res.json();
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ filename: 'first.jpg', width: 120, mimeType: 'image/jpeg' });
    expect(folderFiles(server.mediaDir, body.url)).toEqual(['full.webp', 'original.jpg', 'thumb.jpg', 'thumb.webp']);
  });

  test('an empty client and stage mean none', async () => {
    const r = await upload(admin, { title: 'No client', clientId: '', projectStage: '', tags: '' }, { data: await sampleImage('jpeg', 100, 100), name: 'a.jpg' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ clientId: null, projectStage: null, tags: [], assignedClients: [], isFeatured: false, showInPortfolio: false });
  });
});

describe('videos', () => {
  test.each([
    ['mp4', 'video/mp4'],
    ['mov', 'video/quicktime'],
    ['avi', 'video/x-msvideo'],
    ['mkv', 'video/x-matroska'],
    ['webm', 'video/webm'],
  ] as [VideoFormat, string][])('a %s video gets its facts and a poster frame', async (format, mime) => {
    const data = sampleVideo(format);
    const r = await upload(admin, { title: `Clip ${format}` }, { data, name: `clip.${format}`, type: 'application/octet-stream' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ type: 'video', mimeType: mime, width: 160, height: 120, durationSeconds: 3, fileSize: data.length, webpUrl: null });
    expect(r.body.url).toMatch(new RegExp(`original\\.${format}$`));
    expect(r.body.posterUrl).toMatch(/poster\.jpg$/);
    expect(folderFiles(server.mediaDir, r.body.url)).toEqual([`original.${format}`, 'poster.jpg', 'poster.webp', 'thumb.jpg', 'thumb.webp'].sort());
    const poster = await admin.get(r.body.posterUrl);
    expect(poster.status).toBe(200);
    expect((await sharp(Buffer.from(await poster.arrayBuffer())).metadata()).width).toBe(160);
  });

  test('an uploaded poster image is used instead of a frame', async () => {
    const r = await upload(
      admin,
      { title: 'With poster' },
      { data: sampleVideo('mp4'), name: 'clip.mp4' },
      { data: await sampleImage('png', 500, 200), name: 'poster.png', type: 'image/png' },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const poster = await admin.get(r.body.posterUrl);
    const meta = await sharp(Buffer.from(await poster.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([500, 200]);
    expect(folderFiles(server.mediaDir, r.body.url).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  test('a poster that is not an image is refused with 415 and nothing is kept', async () => {
    const rows = await mediaCount();
    const r = await upload(admin, { title: 'Bad poster' }, { data: sampleVideo('mp4'), name: 'clip.mp4' }, { data: Buffer.from('not an image at all, just text'), name: 'p.jpg' });
    expect(r.status).toBe(415);
    expect(r.body.message).toMatch(/poster/i);
    await expectNothingLeft(rows);
  });
});

describe('rejections leave nothing behind', () => {
  const ftyp = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from(`ftyp${brand}`), Buffer.alloc(200)]);
  test.each([
    ['no file', { title: 'x' }, undefined, 400, /select a file/i],
    ['no title', {}, 'jpeg', 400, /title/i],
    ['a blank title', { title: '   ' }, 'jpeg', 400, /title is required/i],
    ['an unknown stage', { title: 'x', projectStage: 'filming' }, 'jpeg', 400, /projectStage/],
    ['an unknown client', { title: 'x', clientId: '999999' }, 'jpeg', 400, /client/i],
    ['a malformed client id', { title: 'x', clientId: 'abc' }, 'jpeg', 400, /clientId/],
    ['a bad flag', { title: 'x', isFeatured: 'maybe' }, 'jpeg', 400, /isFeatured/],
    ['a text file named .jpg', { title: 'x' }, 'text', 415, /unsupported file type/i],
    ['a HEIC still (ftyp, not video)', { title: 'x' }, 'heic', 415, /unsupported file type/i],
    ['an SVG', { title: 'x' }, 'svg', 415, /unsupported file type/i],
    ['an empty file', { title: 'x' }, 'empty', 400, /select a file/i],
    ['a damaged JPEG', { title: 'x' }, 'broken', 415, /could not be read/i],
    ['a file over the limit', { title: 'x' }, 'big', 413, /too large/i],
  ] as const)('%s', async (_label, fields, kind, status, message) => {
    const rows = await mediaCount();
    const data =
      kind === undefined
        ? undefined
        : kind === 'jpeg'
          ? await sampleImage('jpeg', 100, 100)
          : kind === 'text'
            ? Buffer.from('hello, this is plain text and not a photograph at all')
            : kind === 'heic'
              ? ftyp('heic')
              : kind === 'svg'
                ? Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
                : kind === 'empty'
                  ? Buffer.alloc(0)
                  : kind === 'broken'
                    ? Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 7)])
                    : Buffer.concat([(await sampleImage('jpeg', 100, 100)), Buffer.alloc(LIMIT + 1)]);
    const r = await upload(admin, fields as Record<string, string>, data ? { data, name: 'file.jpg', type: 'image/jpeg' } : undefined);
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.body.message).toMatch(message);
    await expectNothingLeft(rows);
  });

  test('413 names the limit', async () => {
    const r = await upload(admin, { title: 'x' }, { data: Buffer.concat([await sampleImage('jpeg', 50, 50), Buffer.alloc(LIMIT)]), name: 'a.jpg' });
    expect(r.status).toBe(413);
    expect(r.body.message).toContain('390.6 KB');
  });

  test('a declared length far over the limit is refused at once', async () => {
    const rows = await mediaCount();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/api/media`, {
        method: 'POST',
        headers: { Cookie: admin.cookieHeader(), Origin: server.url, 'Content-Type': 'multipart/form-data; boundary=XyZ', 'Content-Length': String(200_000_000) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on('error', reject);
      req.write('--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nBig\r\n');
    });
    expect(status).toBe(413);
    await expectNothingLeft(rows);
  });

  test('a chunked body (no Content-Length) over the limit is 413 and leaves nothing', async () => {
    const rows = await mediaCount();
    const boundary = 'ChunkedBoundary';
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/media`, {
        method: 'POST',
        headers: { Cookie: admin.cookieHeader(), Origin: server.url, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
      });
      req.on('response', (r) => {
        let body = '';
        r.setEncoding('utf8').on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      });
      req.on('error', reject);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nChunked\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.jpg"\r\n\r\n`);
      req.write(Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
      for (let i = 0; i < 10; i++) req.write(Buffer.alloc(LIMIT / 8, 5));
      req.end(`\r\n--${boundary}--\r\n`);
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toMatch(/too large/);
    await expectNothingLeft(rows);
  });

  test('JSON instead of multipart is 415', async () => {
    const r = await admin.json('POST', '/api/media', { title: 'x' });
    expect(r.status).toBe(415);
  });

  test('a client that aborts mid-upload leaves no file and no row, and the server carries on', async () => {
    const rows = await mediaCount();
    const folders = mediaFolders(server.mediaDir);
    const head = await sampleImage('jpeg', 100, 100);
    await new Promise<void>((resolve) => {
      const boundary = 'AbortBoundary';
      const req = http.request(`${server.url}/api/media`, {
        method: 'POST',
        headers: { Cookie: admin.cookieHeader(), Origin: server.url, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(300_000) },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nAborted\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
      req.write(head);
      req.write(Buffer.alloc(100_000, 1));
      // Let the server start writing the file, then drop the connection.
      setTimeout(() => {
        const inProgress = mediaFolders(server.mediaDir).length;
        expect(inProgress).toBe(folders.length + 1);
        req.destroy();
      }, 500);
    });
    await expectNothingLeft(rows);
    expect((await uploadOk()).status).toBe(201);
  });

  // The browser's Cancel, a dropped line, a reset: at any point of the body (fields, file
  // head, mid-file, between parts, mid-poster, the last bytes) the server must carry on and
  // keep nothing. Found the hard way: a queued disk write failing after destroy() once
  // raised an unheard 'error' and ended the process.
  describe('aborted at any point', () => {
    const boundary = 'CutBoundary';
    const preamble = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nCut\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="v.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(52, 1)]);
    const middle = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="posterFile"; filename="p.jpg"\r\n\r\n`);
    const body = Buffer.concat([preamble, ftyp, Buffer.alloc(300_000, 7), middle, Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100_000, 3), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const cuts = { 'in the fields': 40, 'in the file head': preamble.length + 20, 'mid-file': preamble.length + 150_000, 'mid-poster': body.length - 50_000, 'at the last bytes': body.length - 3 };
    test.each(Object.entries(cuts).flatMap(([where, at]) => (['close', 'reset'] as const).map((how) => [where, at, how] as const)))(
      '%s (%s bytes), %s',
      async (_where, at, how) => {
        const rows = await mediaCount();
        await new Promise<void>((resolve) => {
          const req = http.request(`${server.url}/api/media`, {
            method: 'POST',
            headers: { Cookie: admin.cookieHeader(), Origin: server.url, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(body.length) },
          });
          req.on('error', () => resolve());
          req.on('response', (r) => r.resume().on('end', () => resolve()));
          let sent = 0;
          const step = () => {
            if (sent >= at) {
              if (how === 'reset' && req.socket) req.socket.resetAndDestroy();
              else req.destroy();
              setTimeout(resolve, 50);
              return;
            }
            const n = Math.min(16_384, at - sent);
            req.write(body.subarray(sent, sent + n));
            sent += n;
            setImmediate(step);
          };
          step();
        });
        await expectNothingLeft(rows);
        expect((await new Session(server.url).get('/api/media/featured')).status).toBe(200);
      },
    );
  });

  async function uploadOk() {
    return upload(admin, { title: 'After abort' }, { data: await sampleImage('jpeg', 64, 64), name: 'ok.jpg' });
  }
});

describe('permissions', () => {
  let sessions: Record<Actor, Session>;
  beforeAll(async () => {
    sessions = (await matrixFromDb(server, 'upload:media')).sessions;
  });
  const expected: Record<Actor, number> = { anonymous: 401, client: 401, 'staff without it': 403, 'staff with it': 201, admin: 201 };
  test.each(ACTORS)('POST /api/media as %s', async (actor) => {
    const rows = await mediaCount();
    const r = await upload(sessions[actor], { title: `By ${actor}` }, { data: await sampleImage('jpeg', 80, 80), name: 'p.jpg' });
    expect(r.status).toBe(expected[actor]);
    expect(await mediaCount()).toBe(rows + (expected[actor] === 201 ? 1 : 0));
  });
});

// Issue 40, item 8: "Featured" and "Show in portfolio" publish a new item at once, an edit of
// the site: upload:media alone may not set them (as with a new version of a live item).
describe('publishing a new item needs edit:media', () => {
  let uploadOnly: Session;
  let editor: Session;
  beforeAll(async () => {
    uploadOnly = await staffWith(server.url, admin, ['upload:media', 'view:media']);
    editor = await staffWith(server.url, admin, ['upload:media', 'view:media', 'edit:media']);
  });
  const refusal = { status: 403, body: { message: PUBLISHING_NEEDS_EDIT } };

  test.each([['isFeatured'], ['showInPortfolio']])('multipart with %s=true from upload:media alone: 403, nothing stored', async (flag) => {
    const rows = await mediaCount();
    const r = await upload(uploadOnly, { title: `Sneaked ${flag}`, [flag]: 'true' }, { data: await sampleImage('jpeg', 64, 64), name: 'p.jpg' });
    expect(r).toEqual(refusal);
    await expectNothingLeft(rows);
  });

  test('finishing a resumable upload with either flag from upload:media alone: 403, the upload stays open and finishes without them', async () => {
    const data = await sampleImage('jpeg', 64, 64);
    const { res, id } = await createUpload(uploadOnly, data.length, { filename: 'p.jpg' });
    expect(res.status).toBe(201);
    expect((await patchUpload(uploadOnly, id!, 0, data)).status).toBe(204);
    for (const flags of [{ isFeatured: true }, { showInPortfolio: true }, { isFeatured: true, showInPortfolio: true }]) {
      expect(await uploadOnly.json('POST', '/api/media', { uploadId: id, title: 'Sneaked', ...flags })).toEqual(refusal);
    }
    const plain = await uploadOnly.json('POST', '/api/media', { uploadId: id, title: 'Studio only', isFeatured: false, showInPortfolio: false });
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(plain.body).toMatchObject({ isFeatured: false, showInPortfolio: false });
    const publicRows = await server.sql.execute("SELECT count(*) AS n FROM media WHERE title = 'Sneaked' OR (title = 'Studio only' AND (is_featured OR show_in_portfolio))");
    expect(Number(publicRows.rows[0]!.n)).toBe(0);
  });

  test('with edit:media the flags are kept', async () => {
    const r = await upload(editor, { title: 'Published', isFeatured: 'true', showInPortfolio: 'true' }, { data: await sampleImage('jpeg', 64, 64), name: 'p.jpg' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ isFeatured: true, showInPortfolio: true });
  });
});

test('no scratch files survive anywhere in the media folder', () => {
  for (const f of mediaFolders(server.mediaDir)) {
    expect(fs.readdirSync(path.join(server.mediaDir, f)).filter((n) => n.startsWith('.'))).toEqual([]);
  }
});
