// Without SMTP_URL each message is written as a complete .eml file into NOTIFY_DIR, so it can
// be read, forwarded by hand, or sent later (`npm run notify:resend` once SMTP_URL is set).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { config } from '../config.ts';

let composer: Promise<Transporter> | null = null;

/**
 * Builds the raw RFC 5322 message without sending anything. nodemailer is loaded with the first
 * message written, not by every process at start (issue 43).
 */
function messageComposer(): Promise<Transporter> {
  return (composer ??= import('nodemailer').then((m) => m.default.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })));
}

export interface MailMessage {
  from: string | { name: string; address: string };
  to: string;
  subject: string;
  text: string;
}

export async function writeMessageFile(id: number, message: MailMessage): Promise<string> {
  await fs.mkdir(config.notifyDir, { recursive: true });
  const info = await (await messageComposer()).sendMail(message);
  const file = path.join(config.notifyDir, `notification-${String(id).padStart(8, '0')}.eml`);
  // Written under a scratch name and renamed, so a reader never sees half a message.
  const scratch = `${file}.tmp-${process.pid}`;
  await fs.writeFile(scratch, info.message as Buffer);
  await fs.rename(scratch, file);
  return file;
}
