import { endpoint, json, parseId, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { setEnquiryStatus } from '../../../server/enquiries/index.ts';
import { enquiryStatusSchema } from '../../../shared/schemas/enquiry.ts';

export const PATCH = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:enquiries');
  const id = parseId(ctx.params.id, 'Enquiry');
  const { status } = await readJson(ctx.request, enquiryStatusSchema);
  return json(await setEnquiryStatus(id, status));
});
