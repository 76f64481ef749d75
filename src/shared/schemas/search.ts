// Search across captions and notes (issue 54, item 5): the query a search box sends and the hits
// it gets back. Both sides import this.
import { z } from '../zod.ts';

export const searchQuerySchema = z.object({
  /** Words, and "phrases in quotes"; accents and case do not matter; the last word may be a beginning. */
  // Not trimmed: a space after the last word says it is finished (no longer a beginning).
  q: z.string().max(200, 'Search for at most 200 characters').refine((s) => s.trim().length > 0, 'Type a word to search for'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** The query parameters present in `params`, parsed (400 naming the field otherwise). */
export function searchQueryFrom(params: URLSearchParams): SearchQuery {
  return searchQuerySchema.parse({ q: params.get('q') ?? '', limit: params.get('limit') || undefined });
}

/** Part of a hit's text: `hit` marks the words that matched (shown highlighted). */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

export interface SearchHit {
  kind: 'cue' | 'note';
  mediaId: number;
  title: string;
  /** The version the cue or note is on (null: a note from before versions). */
  versionId: number | null;
  versionNumber: number | null;
  /** Cues: the track's id, language and label. */
  trackId: number | null;
  language: string | null;
  label: string | null;
  noteId: number | null;
  /** Where the player opens: the cue's start or the note's time. */
  atMs: number;
  snippet: SnippetPart[];
}

export interface SearchAnswer {
  hits: SearchHit[];
}
