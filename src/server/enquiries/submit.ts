// The public contact form's path into the inbox: honeypot, validation, rate limit, store,
// then (without waiting) the email to the studio.
import { HttpError } from '../http.ts';
import { enquirySchema } from '../../shared/schemas/enquiry.ts';
import { notifyNewEnquiry } from './notify.ts';
import { RATE_LIMIT_MESSAGE, takeEnquirySlot } from './rate-limit.ts';
import { createEnquiry } from './store.ts';

/** Anything in the hidden `website` field means a bot filled the form in. */
function isBot(body: Record<string, unknown>): boolean {
  const v = body.website;
  return v !== undefined && v !== null && String(v).trim() !== '';
}

/**
 * Stores the enquiry and returns its id, or null when the honeypot says bot (the caller answers
 * as if it worked, so the bot learns nothing). Throws ZodError (400) or HttpError(429).
 */
export async function submitEnquiry(body: Record<string, unknown>, address: string | null): Promise<number | null> {
  if (isBot(body)) return null;
  const { website: _honeypot, ...data } = enquirySchema.parse(body);
  const release = takeEnquirySlot(address);
  if (!release) throw new HttpError(429, RATE_LIMIT_MESSAGE);
  let enquiry;
  try {
    enquiry = await createEnquiry(data);
  } catch (error) {
    release();
    throw error;
  }
  notifyNewEnquiry(enquiry);
  return enquiry.id;
}
