// A published film's captions on the public site (issue 54): the tracks staff marked
// "published" on its current version, as <track>s of the watch page's player (rendered with the
// page, so they work without JavaScript) and as a transcript under it and in its VideoObject.
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { mediaVersions } from '../../db/schema.ts';
import { mediaUrl } from '../storage/paths.ts';
import type { PlayerCaption } from '../../shared/schemas/captions.ts';
import { transcriptOf } from './format.ts';
import { cuesOf, tracksOfVersion } from './read.ts';

export interface Transcript {
  label: string;
  language: string;
  lines: string[];
}

export interface PublishedCaptions {
  tracks: PlayerCaption[];
  transcript: Transcript | null;
}

/** The published tracks of the current version of a public item, by its file's address (`/media/{key}/…`). */
export async function publishedCaptions(itemUrl: string): Promise<PublishedCaptions> {
  const storageKey = /^\/media\/([a-f0-9]{32})\//.exec(itemUrl)?.[1];
  if (!storageKey) return { tracks: [], transcript: null };
  const [version] = await db.select({ id: mediaVersions.id }).from(mediaVersions).where(eq(mediaVersions.storageKey, storageKey)).limit(1);
  if (!version) return { tracks: [], transcript: null };
  const rows = await tracksOfVersion(version.id, 'published');
  const tracks = rows.map((t) => ({ id: t.id, language: t.language, label: t.label, kind: t.kind, src: mediaUrl(storageKey, `cc-${t.revisionId}.vtt`), downloads: null }));
  // The transcript reads the dialogue: English first, captions (with their sound descriptions)
  // before subtitles, never forced subtitles (only the foreign lines).
  const rank = (t: (typeof rows)[number]) => (t.language.startsWith('en') ? 0 : 2) + (t.kind === 'captions' ? 0 : 1);
  const chosen = rows.filter((t) => t.kind !== 'forced').sort((a, b) => rank(a) - rank(b))[0];
  const transcript = chosen ? { label: chosen.label, language: chosen.language, lines: transcriptOf(await cuesOf(chosen.revisionId)) } : null;
  return { tracks, transcript };
}
