import { badRequest, endpoint, parseId } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { contentDisposition } from '../../../../../../server/media/delivery.ts';
import { exportSelection } from '../../../../../../server/proofing/selections.ts';

/** ?format=csv (a spreadsheet) or lightroom (file names without extension, comma-separated). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const selectionId = parseId(ctx.params.selectionId, 'Selection');
  const format = ctx.url.searchParams.get('format') ?? 'csv';
  if (format !== 'csv' && format !== 'lightroom') throw badRequest('format: must be csv or lightroom');
  const out = await exportSelection(id, selectionId, format);
  const headers: Record<string, string> = { 'Content-Type': out.type, 'Cache-Control': 'no-store' };
  if (ctx.url.searchParams.get('download') === '1') headers['Content-Disposition'] = contentDisposition(out.filename);
  return new Response(out.body, { headers });
});
