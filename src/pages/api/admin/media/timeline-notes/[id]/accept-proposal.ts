import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { acceptProposal } from '../../../../../../server/captions/cue-notes.ts';
import { acceptProposalSchema } from '../../../../../../shared/schemas/review.ts';

/**
 * Accepts the wording a note proposes for its caption cue into the track, as the track's next
 * revision (issue 54; `source: "link"`: a share-link visitor's note). Editing captions is
 * `edit:media`, so this is too. Answers the note's cue, accepted.
 */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const { source } = await readJson(ctx.request, acceptProposalSchema);
  return json(await acceptProposal(parseId(ctx.params.id, 'Timeline note'), source, user.id));
});
