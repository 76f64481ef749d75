// The public enquiry form (000 §7): 201 { id }.
import { z } from 'zod';
import { clientIp, endpoint, json, readJson } from '../../server/http.ts';
import { submitEnquiry } from '../../server/enquiries/index.ts';

// Only the shape here: the honeypot must be looked at before the fields are validated.
const body = z.record(z.string(), z.unknown(), { error: 'The body must be a JSON object' });

export const POST = endpoint(async (ctx) => {
  const id = await submitEnquiry(await readJson(ctx.request, body), clientIp(ctx));
  // A bot caught by the honeypot gets the same answer shape, with no id that exists.
  return json({ id: id ?? 0 }, 201);
});
