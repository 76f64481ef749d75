// A real local SMTP server (smtp-server) for email tests, and a reader for what it received.
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface Received {
  rcptTo: string[];
  mailFrom: string;
  raw: string;
}

/** A local SMTP server whose behaviour each test can change. */
export class Mailbox {
  received: Received[] = [];
  rcptAttempts = 0;
  connections = 0;
  /** Return an Error to refuse the recipient. */
  onRcpt: (attempt: number) => Error | null = () => null;
  /** Resolves when the message may be accepted (lets a test hold a delivery open). */
  holdData: Promise<void> = Promise.resolve();
  private waiters: (() => void)[] = [];
  server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect: (_s, cb) => {
      this.connections++;
      cb();
    },
    onRcptTo: (_address, _session, cb) => {
      const error = this.onRcpt(++this.rcptAttempts);
      cb(error ?? undefined);
    },
    onData: (stream, session: SMTPServerSession, cb) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        await this.holdData;
        this.received.push({
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
        this.waiters.splice(0).forEach((w) => w());
      });
    },
  });
  /**
   * Connection errors (smtp-server emits them on the server, and an 'error' event nobody listens
   * to is thrown): the app's sender reset mid-conversation when its server stops is one (CI, a
   * loaded machine). Kept for a test that wants to look; never thrown.
   */
  connectionErrors: Error[] = [];
  port = 0;
  constructor() {
    this.server.on('error', (e: Error) => this.connectionErrors.push(e));
  }
  /** Listens on `port` (0: a free one). */
  async listen(port = 0) {
    await new Promise<void>((r) => this.server.listen(port, '127.0.0.1', () => r()));
    this.port = (this.server.server.address() as AddressInfo).port;
  }
  reset() {
    this.received = [];
    this.rcptAttempts = 0;
    this.connections = 0;
    this.onRcpt = () => null;
    this.holdData = Promise.resolve();
  }
  async waitForMessages(n: number, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (Date.now() > deadline) throw new Error(`expected ${n} message(s), got ${this.received.length}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
    return this.received;
  }
  close() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** Headers and the (quoted-printable-decoded) text body of a raw message. */
export function parse(raw: string) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of head!.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    headers.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  let body = rest.join('\n\n');
  if (/quoted-printable/i.test(headers.get('content-transfer-encoding') ?? '')) {
    body = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));
  }
  return { headers, body: body.replace(/\r\n/g, '\n') };
}

/** A header value with its RFC 2047 encoded words (=?UTF-8?Q?...?= or ?B?) decoded. */
export function decodeHeader(value: string): string {
  return value.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=(\s+(?==\?))?/gi, (_m, enc: string, text: string) => {
    if (enc.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
    const bytes = text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  });
}
