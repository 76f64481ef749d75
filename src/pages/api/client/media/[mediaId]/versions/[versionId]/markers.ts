import { endpoint, parseId } from '../../../../../../../server/http.ts';
import { requireClient } from '../../../../../../../server/auth/guard.ts';
import { clientMarkers, parseFormat } from '../../../../../../../server/review/markers/export.ts';

/** A client's own notes on a version of an item assigned to them, as CSV (issue 30); never internal or other people's notes. */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const format = parseFormat(ctx.url.searchParams.get('format') ?? 'csv', ['csv']);
  return clientMarkers(client, parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.versionId, 'Version'), format);
});
