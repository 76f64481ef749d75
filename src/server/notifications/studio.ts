// Emails that read like the studio's (issue 32): the From name is the branding company name
// (NOTIFY_FROM, when set, is used exactly as written), and every notification email ends with
// a short signature made from the Contact Info settings. Both are read when a message is sent,
// so a changed name or phone number applies to everything still in the outbox.
import { config } from '../config.ts';
import { getBrandingSettings, getContactInfo } from '../settings/read.ts';
import { oneLine } from '../mail/plain-text.ts';

export interface StudioIdentity {
  /** nodemailer's address form: the name is encoded by nodemailer, never pasted into a header. */
  from: string | { name: string; address: string };
  signature: string;
}

/** The address part of a configured sender ("Name <a@b>" or "a@b"). */
export function addressPart(value: string): string {
  const m = /<([^<>]+)>\s*$/.exec(value);
  return (m ? m[1]! : value).trim();
}

/** The address used when NOTIFY_FROM is not set: ENQUIRY_NOTIFY_FROM's, else no-reply at the site's host. */
export function defaultSenderAddress(): string {
  if (config.ENQUIRY_NOTIFY_FROM) return addressPart(config.ENQUIRY_NOTIFY_FROM);
  let host = 'localhost';
  try {
    host = new URL(config.siteUrl).hostname || host;
  } catch {
    /* the default */
  }
  return `no-reply@${host.includes('.') ? host : `${host}.localdomain`}`;
}

/** The signature's lines: the company name, then whichever contact details are filled in, then the site. */
export function signatureOf(companyName: string, contact: { contactPhone: string; contactEmail: string; contactAddress: string }): string {
  const address = contact.contactAddress
    .split(/\r?\n/)
    .map((l) => oneLine(l))
    .filter(Boolean)
    .join(', ');
  return [
    oneLine(companyName, 100),
    contact.contactPhone && `Phone: ${oneLine(contact.contactPhone, 60)}`,
    contact.contactEmail && `Email: ${oneLine(contact.contactEmail, 120)}`,
    address && `Address: ${oneLine(address, 200)}`,
    config.siteUrl,
  ]
    .filter(Boolean)
    .join('\n');
}

/** An RFC 2047 encoded word, `=?charset?B|Q?text?=`. */
const ENCODED_WORD = /=\?[^?\s]*\?[bq]\?[^?\s]*\?=/gi;

/**
 * The From name made from the company name (staff type it in Branding): one line, without
 * encoded words (mail clients decode one even inside quotes, so `=?UTF-8?B?…?=` could show any
 * address) and without the quotes, angle brackets and backslashes that could read as the end
 * of the name and a second mailbox (`Ann "X" <evil@x.test>, Ltd`).
 */
export function senderName(companyName: string): string {
  const bare = oneLine(companyName).replace(/["<>\\]/g, '').replace(ENCODED_WORD, '');
  // What is left around a removed word could form a new one: no "=?" survives at all.
  return oneLine(bare.replace(/=\?/g, '= ?'), 100);
}

/** The sender and signature for a message sent now. */
export async function studioIdentity(): Promise<StudioIdentity> {
  const [branding, contact] = await Promise.all([getBrandingSettings(), getContactInfo()]);
  const name = senderName(branding.companyName);
  const address = defaultSenderAddress();
  return {
    from: config.NOTIFY_FROM ? config.NOTIFY_FROM : name ? { name, address } : address,
    signature: signatureOf(branding.companyName, contact),
  };
}

/**
 * The body with the signature after the message and before the footer that says why the
 * reader gets these emails (the last "--" line; people's words are quoted, so theirs never
 * starts a line with it). Without a footer the signature goes at the end.
 */
export function withSignature(body: string, signature: string): string {
  const footer = body.lastIndexOf('\n\n--\n');
  if (footer < 0) return `${body}\n\n${signature}`;
  return `${body.slice(0, footer)}\n\n${signature}${body.slice(footer)}`;
}
