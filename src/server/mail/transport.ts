// The one SMTP transport (SMTP_URL), shared by the enquiry email and the notification outbox,
// so timeouts and connection settings are decided in one place. nodemailer is loaded only when
// SMTP_URL is set (issue 43: an install writing emails to NOTIFY_DIR never needs it).
import type { Transporter } from 'nodemailer';
import { config } from '../config.ts';

let transport: Promise<Transporter | null> | undefined;

/** The transport for SMTP_URL; null when mail is not configured. */
export function smtpTransport(): Promise<Transporter | null> {
  transport ??= config.SMTP_URL ? makeTransport(config.SMTP_URL) : Promise.resolve(null);
  return transport;
}

async function makeTransport(url: string): Promise<Transporter> {
  const nodemailer = (await import('nodemailer')).default;
  return nodemailer.createTransport({
    url,
    // Fail an attempt in seconds rather than nodemailer's minutes, so retries mean something.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as never);
}
