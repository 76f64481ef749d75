import { z } from 'zod';
import { endpoint, json } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { listEnquiries } from '../../../server/enquiries/index.ts';
import { ENQUIRY_STATUSES } from '../../../shared/schemas/enquiry.ts';

const query = z.object({
  status: z.enum(ENQUIRY_STATUSES, { error: "status must be 'new', 'read' or 'archived'" }).optional(),
  q: z.string().max(200).optional(),
});

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:enquiries');
  const filter = query.parse({
    status: ctx.url.searchParams.get('status') || undefined,
    q: ctx.url.searchParams.get('q') || undefined,
  });
  return json(await listEnquiries(filter));
});
