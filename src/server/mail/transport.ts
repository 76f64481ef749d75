// The one SMTP transport (SMTP_URL), shared by the enquiry email and the notification outbox,
// so timeouts and connection settings are decided in one place.
import nodemailer, { type Transporter } from 'nodemailer';
import { config } from '../config.ts';

let transport: Transporter | null | undefined;

/** The transport for SMTP_URL; null when mail is not configured. */
export function smtpTransport(): Transporter | null {
  if (transport !== undefined) return transport;
  transport = config.SMTP_URL
    ? nodemailer.createTransport({
        url: config.SMTP_URL,
        // Fail an attempt in seconds rather than nodemailer's minutes, so retries mean something.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      } as never)
    : null;
  return transport;
}
