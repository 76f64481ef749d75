// A bare tus 1.0 client for the API tests: every request spelled out, so the tests can cut
// connections and send wrong offsets on purpose.
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { Session } from './http.ts';
import { tcpTable } from './sockets.ts';

export const TUS = { 'Tus-Resumable': '1.0.0' };
export const OCTETS = { 'Content-Type': 'application/offset+octet-stream' };

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

export function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}

/** POST /api/uploads; answers the response and the upload id (last segment of Location). */
export async function createUpload(s: Session, length: number, meta: Record<string, string> = { filename: 'clip.bin' }) {
  const res = await s.request('POST', '/api/uploads', undefined, { ...TUS, 'Upload-Length': String(length), 'Upload-Metadata': metadata(meta) });
  const location = res.headers.get('location');
  return { res, location, id: location?.split('/').pop() ?? null };
}

export async function headOffset(s: Session, id: string) {
  const res = await s.request('HEAD', `/api/uploads/${id}`, undefined, TUS);
  return { res, offset: Number(res.headers.get('upload-offset') ?? NaN) };
}

export function patchUpload(s: Session, id: string, offset: number, bytes: Uint8Array) {
  return s.request('PATCH', `/api/uploads/${id}`, bytes, { ...TUS, ...OCTETS, 'Upload-Offset': String(offset) });
}

/**
 * Starts a PATCH declaring all of `bytes` but sends only the first `sendBytes`, then calls
 * `cut` (which must end the connection or the server). Resolves once the socket is closed.
 */
export function partialPatch(s: Session, id: string, offset: number, bytes: Uint8Array, sendBytes: number, whenSent: (req: http.ClientRequest) => Promise<void>) {
  return new Promise<void>((resolve, reject) => {
    const url = new URL(`/api/uploads/${id}`, s.base);
    const req = http.request(url, {
      method: 'PATCH',
      headers: {
        ...TUS,
        ...OCTETS,
        'Upload-Offset': String(offset),
        'Content-Length': String(bytes.length),
        Origin: s.base,
        Cookie: s.cookieHeader(),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.on('response', (res) => reject(new Error(`the partial PATCH was answered: ${res.statusCode}`)));
    req.write(bytes.subarray(0, sendBytes), () => whenSent(req).catch(reject));
  });
}

/**
 * Waits until the server has read everything this request wrote so far off the socket: the
 * client's send queue and the server's receive queue of the connection are both empty
 * (/proc/net/tcp, IPv4 loopback). Says nothing of what the server did with the bytes.
 */
export async function serverHasRead(req: http.ClientRequest, timeoutMs = 10_000): Promise<void> {
  const client = req.socket!.localPort!;
  const server = req.socket!.remotePort!;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const table = tcpTable();
    const out = table.find((e) => e.local === client && e.remote === server);
    const inbound = table.find((e) => e.local === server && e.remote === client);
    if (!out || !inbound) throw new Error('the connection is not in /proc/net/tcp');
    if (out.txQueue === 0 && inbound.rxQueue === 0) return;
    if (Date.now() > end) throw new Error(`the server did not read the request's bytes (queued: sent ${out.txQueue}, unread ${inbound.rxQueue})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
