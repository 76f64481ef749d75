// Searching the library's captions and notes (issue 54, item 5) through the FTS5 index kept by
// the triggers of migration 0029 (search_docs, search_fts): the best matches first (rank.ts), each
// with the item, the version, the track or note, the time the player opens at, and a snippet
// whose matched words are marked. Works the same on the embedded file and on sqld (both ship
// FTS5 with the unicode61 tokenizer; accents are folded by `remove_diacritics 2`).
import { db } from '../../db/index.ts';
import type { SearchHit } from '../../shared/schemas/search.ts';
import { badRequest } from '../http.ts';
import { matchOf, queryTerms } from './fts-query.ts';
import { ranked, rankTerms } from './rank.ts';
import { CLOSE, OPEN, snippetParts } from './snippet.ts';

/**
 * Who is searching, and so which hits they may see: staff (view:media) the whole library; a
 * client login the items assigned to its client (every version's tracks, as the portal plays
 * them) and, of their notes, its own and the studio's that are not internal (as the portal
 * lists them); a share link's guests, the link's items (below).
 */
export type SearchScope = { kind: 'staff' } | { kind: 'client'; clientId: number; clientUserId: number } | { kind: 'link'; linkId: number };

/** The scope's condition on a hit (`d` the doc, `m` its item, `n` its note), and its arguments. */
function scopeFilter(scope: SearchScope): { sql: string; args: (number | bigint)[] } {
  if (scope.kind === 'staff') return { sql: '', args: [] };
  if (scope.kind === 'link') {
    // A link's guests: the version each of its items shows (the current one, as the share page
    // plays it: every track of it) and the studio's notes on it that are not internal (as the
    // page lists them). Guests' own comments live with the link (share_comments), not in the index.
    return {
      sql: `AND d.version_id IN (SELECT lv.id FROM share_link_items li
              JOIN media lm ON lm.id = li.media_id
              JOIN media_versions lv ON lv.storage_key = lm.storage_key
              WHERE li.link_id = ?)
            AND (d.kind = 'cue' OR (n.by_staff = 1 AND n.internal = 0))`,
      args: [scope.linkId],
    };
  }
  return {
    sql: `AND (m.client_id = ? OR m.id IN (SELECT media_id FROM media_clients WHERE client_id = ?))
          AND (d.kind = 'cue' OR n.client_user_id = ? OR (n.by_staff = 1 AND n.internal = 0))`,
    args: [scope.clientId, scope.clientId, scope.clientUserId],
  };
}

/**
 * A word in a third of a million cues has a third of a million matches: the best are chosen
 * among the newest RANKED (found by walking the index backwards, which stops early), so a
 * search costs about the same whatever it matches, and a more precise query still finds an
 * older one. They are ranked in rank.ts, from their text.
 */
export const RANKED = 1000;

export async function searchLibrary(q: string, scope: SearchScope, limit: number): Promise<SearchHit[]> {
  const terms = queryTerms(q);
  const match = matchOf(terms);
  if (!match) throw badRequest('Type a word to search for');
  const only = scopeFilter(scope);
  // The newest RANKED matches this person may see (the scope walks the index backwards with them).
  const candidates = await db.$client.execute({
    sql: `SELECT d.id, d.text FROM search_fts
          JOIN search_docs d ON d.id = search_fts.rowid
          JOIN media m ON m.id = d.media_id
          LEFT JOIN timeline_notes n ON n.id = d.note_id
          WHERE search_fts MATCH ? ${only.sql}
          ORDER BY search_fts.rowid DESC LIMIT ?`,
    args: [match, ...only.args, RANKED],
  });
  const best = ranked(
    candidates.rows.map((row) => ({ id: Number(row.id), text: String(row.text) })),
    rankTerms(terms),
  ).slice(0, limit);
  if (!best.length) return [];
  const ids = best.map((b) => b.id);
  // The chosen rows' snippets (snippet() needs the MATCH), read first and on their own inside the
  // chosen ids' range, so FTS5 walks only that part of the index (joined to the other tables in
  // one query, the planner may start from those and ask the index once per row: seconds for a
  // common word).
  const r = await db.$client.execute({
    sql: `WITH s AS MATERIALIZED (
            SELECT search_fts.rowid AS id, snippet(search_fts, 0, ?, ?, '…', 16) AS snippet FROM search_fts
            WHERE search_fts MATCH ? AND search_fts.rowid >= ? AND search_fts.rowid <= ? AND +search_fts.rowid IN (${ids.map(() => '?').join(', ')}))
          SELECT d.id, d.kind, d.media_id, m.title, d.version_id, v.number AS version_number, d.track_id, t.language, t.label, d.note_id, d.at_ms, s.snippet
          FROM s
          JOIN search_docs d ON d.id = s.id
          JOIN media m ON m.id = d.media_id
          LEFT JOIN media_versions v ON v.id = d.version_id
          LEFT JOIN caption_tracks t ON t.id = d.track_id`,
    args: [OPEN, CLOSE, match, Math.min(...ids), Math.max(...ids), ...ids],
  });
  const order = new Map(ids.map((id, i) => [id, i]));
  const rows = [...r.rows].sort((a, b) => order.get(Number(a.id))! - order.get(Number(b.id))!);
  return rows.map((row) => ({
    kind: row.kind === 'note' ? 'note' : 'cue',
    mediaId: Number(row.media_id),
    title: String(row.title),
    versionId: row.version_id === null ? null : Number(row.version_id),
    versionNumber: row.version_number === null ? null : Number(row.version_number),
    trackId: row.track_id === null ? null : Number(row.track_id),
    language: row.language === null ? null : String(row.language),
    label: row.label === null ? null : String(row.label),
    noteId: row.note_id === null ? null : Number(row.note_id),
    atMs: Number(row.at_ms),
    snippet: snippetParts(String(row.snippet ?? '')),
  }));
}
