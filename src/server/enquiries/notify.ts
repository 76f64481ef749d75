// Emails each new enquiry to the studio (SMTP_URL + ENQUIRY_NOTIFY_TO). Called after the
// enquiry is stored and never awaited by the request: the visitor's answer does not wait for
// SMTP, and a failed send is retried with backoff, then logged. The stored row is untouched
// either way, so nothing is lost when mail is down; staff still see it in /admin/enquiries.
import type { Transporter } from 'nodemailer';
import { config } from '../config.ts';
import { smtpTransport } from '../mail/transport.ts';
import { oneLine, quoted } from '../mail/plain-text.ts';
import { projectTypeLabel, type Enquiry } from '../../shared/schemas/enquiry.ts';

export const SEND_ATTEMPTS = 4;
/** Waits between attempts: 1 s, 2 s, 4 s. */
export const FIRST_RETRY_DELAY_MS = 1000;

function getTransport(): Promise<Transporter | null> {
  return config.ENQUIRY_NOTIFY_TO ? smtpTransport() : Promise.resolve(null);
}

const received = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'Europe/London' });

/** Plain text only, so nothing the visitor typed is ever interpreted as markup. */
export function enquiryEmail(e: Enquiry) {
  const name = oneLine(`${e.firstName} ${e.lastName}`);
  const type = projectTypeLabel(e.projectType);
  const text = [
    'A new enquiry arrived through the website contact form.',
    '',
    `Name: ${name}`,
    `Email: ${oneLine(e.email)}`,
    `Project type: ${type || 'Not specified'}`,
    `Received: ${received.format(new Date(e.createdAt))}`,
    '',
    'Message:',
    // Quoted, so the visitor's lines cannot pass for the lines of this email.
    quoted(e.message),
    '',
    `Reply to this email to answer ${oneLine(e.firstName)}, or open the inbox: ${config.siteUrl}/admin/enquiries`,
  ].join('\n');
  return {
    from: config.ENQUIRY_NOTIFY_FROM || config.ENQUIRY_NOTIFY_TO,
    to: config.ENQUIRY_NOTIFY_TO,
    replyTo: { name, address: oneLine(e.email) },
    subject: `New enquiry from ${name}${type ? ` (${type})` : ''}`,
    text,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sendWithRetries(t: Transporter, e: Enquiry): Promise<void> {
  const message = enquiryEmail(e);
  for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
    try {
      await t.sendMail(message);
      return;
    } catch (error) {
      const why = (error as Error)?.message ?? String(error);
      if (attempt === SEND_ATTEMPTS) {
        console.error(`Enquiry ${e.id}: notification email failed ${SEND_ATTEMPTS} times, giving up (the enquiry is stored): ${why}`);
        return;
      }
      const wait = FIRST_RETRY_DELAY_MS * 2 ** (attempt - 1);
      console.error(`Enquiry ${e.id}: notification email attempt ${attempt} failed, retrying in ${wait} ms: ${why}`);
      await sleep(wait);
    }
  }
}

/** Fire and forget: returns at once; does nothing without SMTP settings. */
export function notifyNewEnquiry(e: Enquiry): void {
  void getTransport()
    .then((t) => t && sendWithRetries(t, e))
    .catch((error) => console.error(`Enquiry ${e.id}: notification email crashed`, error));
}
