// Pieces shared by the media benchmarks: a generated 1 GB "video", peak-RSS tracking of the
// server process, and a streaming multipart upload that never holds the file in memory.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawnBareServer } from './lib.mjs';

export const GB = 1024 ** 3;
export const MB = 1024 ** 2;

/**
 * A file that the server accepts as MP4: an ftyp box, then one mdat box spanning the rest
 * (random bytes). ffprobe/ffmpeg give up on it quickly (no moov), as they would on footage
 * they cannot read, so the figures measure the transfer, not the video tools.
 */
export async function makeBigFile(size = Number(process.env.BENCH_UPLOAD_BYTES || GB)) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-media-'));
  const file = path.join(dir, 'big.mp4');
  // A real (tiny) H.264 MP4, moov first, padded to `size` with a trailing `free` box of random
  // bytes: uploads are probed, so the file must hold a decodable picture; the padding keeps the
  // size exact and the bytes incompressible.
  const clip = path.join(dir, 'clip.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=24:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', clip]);
  const head = fs.readFileSync(clip);
  fs.rmSync(clip);
  const freeHeader = Buffer.alloc(16);
  freeHeader.writeUInt32BE(1, 0); // 64-bit size follows
  freeHeader.write('free', 4);
  freeHeader.writeBigUInt64BE(BigInt(size - head.length), 8);
  const out = fs.createWriteStream(file);
  const write = (b) => (out.write(b) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  await write(head);
  await write(freeHeader);
  const chunk = randomBytes(4 * MB);
  let left = size - head.length - freeHeader.length;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    await write(n === chunk.length ? chunk : chunk.subarray(0, n));
    left -= n;
  }
  await new Promise((r) => out.end(r));
  return { dir, file, size, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

function status(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * Tracks a process's resident memory: idle RSS now, then the peak until stop() (VmHWM after
 * resetting it through /proc/<pid>/clear_refs, cross-checked by sampling VmRSS).
 */
export function trackMemory(pid) {
  if (global.gc) global.gc();
  const idle = status(pid).rss;
  let reset = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false; // not allowed here: fall back to sampling only
  }
  let sampled = idle;
  const timer = setInterval(() => {
    try {
      sampled = Math.max(sampled, status(pid).rss);
    } catch {
      /* process gone */
    }
  }, 20);
  return {
    idle,
    stop() {
      clearInterval(timer);
      const s = status(pid);
      const peak = Math.max(sampled, s.rss, reset ? s.hwm : 0);
      return { idleMB: idle / MB, peakMB: peak / MB, growthMB: (peak - idle) / MB, hwmReset: reset };
    },
  };
}

/** POSTs a multipart upload with the file streamed from disk; resolves with status and body. */
export function streamUpload(base, cookie, file, fields, urlPath = '/api/media') {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: video/mp4\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const size = fs.statSync(file).size;
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${urlPath}`, {
      method: 'POST',
      headers: {
        Cookie: cookie,
        Origin: base,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(Buffer.byteLength(head) + size + Buffer.byteLength(tail)),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.write(head);
    const src = fs.createReadStream(file, { highWaterMark: MB });
    src.on('error', reject);
    src.on('end', () => req.end(tail));
    src.pipe(req, { end: false });
  });
}

/**
 * Copies a file on the same disk: 'stream' reads and writes through Node in 64 KB chunks
 * (what the upload does on the server side); 'cp' is coreutils cp (in-kernel copy).
 */
export async function copyFile(src, dst, how = 'stream') {
  if (how === 'cp') {
    const { execFileSync } = await import('node:child_process');
    execFileSync('cp', ['--', src, dst]);
    return;
  }
  const { pipeline } = await import('node:stream/promises');
  await pipeline(fs.createReadStream(src), fs.createWriteStream(dst));
}

export function readFileThrough(file) {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    fs.createReadStream(file, { highWaterMark: MB })
      .on('data', (c) => (bytes += c.length))
      .on('end', () => resolve(bytes))
      .on('error', reject);
  });
}

/** GETs a URL and counts the bytes (discarding them); optional Range header. */
export function download(url, cookie, range, { pauseMs = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const headers = { Cookie: cookie };
    if (range) headers.Range = range;
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        let paused = false;
        res.on('data', (c) => {
          bytes += c.length;
          if (pauseMs && !paused) {
            // A slow client: stop reading for a while after the first chunk.
            paused = true;
            res.pause();
            setTimeout(() => res.resume(), pauseMs);
          }
        });
        res.on('end', () => resolve({ status: res.statusCode, bytes, headers: res.headers }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

export const mbps = (bytes, ms) => bytes / MB / (ms / 1000);

/**
 * A bare node:http server in its own process streaming the file (fs.createReadStream →
 * res): the reference for "how fast can this machine serve these bytes over HTTP".
 */
export async function startBareFileServer(file) {
  const script = `
    const http = require('node:http');
    const fs = require('node:fs');
    const file = ${JSON.stringify(file)};
    const size = fs.statSync(file).size;
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': size });
      fs.createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(res);
    }).listen(0, '127.0.0.1', function () { console.log('BARE_LISTENING ' + this.address().port); });
  `;
  const bare = await spawnBareServer(script);
  return { ...bare, url: `${bare.url}/` };
}

/**
 * A bare node:http server in its own process writing each request body to a file
 * (req.pipe(fs.createWriteStream)): the machine's ceiling for receiving an upload over HTTP.
 */
export async function startBareUploadServer(dir) {
  const script = `
    const http = require('node:http');
    const fs = require('node:fs');
    const path = require('node:path');
    let n = 0;
    http.createServer((req, res) => {
      const file = path.join(${JSON.stringify(dir)}, 'bare-upload-' + (n++));
      req.pipe(fs.createWriteStream(file)).on('close', () => {
        fs.rmSync(file, { force: true });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{}');
      });
    }).listen(0, '127.0.0.1', function () { console.log('BARE_LISTENING ' + this.address().port); });
  `;
  return spawnBareServer(script);
}
