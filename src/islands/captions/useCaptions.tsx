// A player's captions (issue 54): the tracks of the version it plays (its folder's
// captions.json, or given by the page), rendered as <track> elements, and the one chosen shown.
// Streams through hls.js carry the same <track>s (its light build reads no subtitle renditions);
// the browser's own HLS (Safari) reads the master's subtitle renditions instead, so there the
// chosen one is found among the element's text tracks by language and label.
import { useEffect, useState, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { apiGet } from '../../shared/api.ts';
import type { CaptionIndex, PlayerCaption } from '../../shared/schemas/captions.ts';
import { $captionChoice, trackFor } from './choice.ts';
import { plainCue, setCueShown } from './cue-shown.ts';

const EMPTY: CaptionIndex = { tracks: [], downloadBlockedReason: null };
const loaded = new Map<string, Promise<CaptionIndex>>();
/** Bumped when staff change a version's tracks: players read their index again. */
export const $captionsChanged = atom(0);

export function captionsChanged(): void {
  loaded.clear();
  $captionsChanged.set($captionsChanged.get() + 1);
}

/** The folder a file address sits in: `/media/{key}/` or `/s/{token}/m/{id}/`. */
export function folderOf(url: string | null | undefined): string | null {
  if (!url) return null;
  const path = url.split('?')[0]!;
  const at = path.lastIndexOf('/');
  return at > 0 ? path.slice(0, at + 1) : null;
}

/** The index of the folder's captions (none when `folder` is null; `given` skips the fetch). */
export function useCaptionIndex(folder: string | null, given?: PlayerCaption[]): CaptionIndex {
  const [index, setIndex] = useState<CaptionIndex>(EMPTY);
  const changed = useStore($captionsChanged);
  useEffect(() => {
    if (given || !folder) return;
    let live = true;
    const url = `${folder}captions.json`;
    let p = loaded.get(url);
    if (!p) {
      p = apiGet<CaptionIndex>(url, { on401: 'null' }).then((r) => r ?? EMPTY, () => EMPTY);
      loaded.set(url, p);
    }
    void p.then((r) => live && setIndex(r));
    return () => {
      live = false;
    };
  }, [folder, given, changed]);
  return given ? { tracks: given, downloadBlockedReason: null } : index;
}

/**
 * Shows the chosen track on `video` and hides the others. `native`: the element plays the
 * browser's own HLS, whose text tracks come from the master playlist.
 */
export function useShownCaptions(video: RefObject<HTMLVideoElement | null>, tracks: readonly PlayerCaption[], native = false): PlayerCaption | null {
  const choice = useStore($captionChoice);
  const shown = trackFor(tracks, choice);
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const apply = () => {
      for (const t of Array.from(v.textTracks)) {
        if (t.kind !== 'subtitles' && t.kind !== 'captions') continue;
        const match = shown && (native ? t.language === shown.language && t.label === shown.label : t.id === trackId(shown));
        t.mode = match ? 'showing' : 'disabled';
      }
    };
    // The cue on screen, for a note to pin (issue 54): read from the showing track's active cues.
    let showing: TextTrack | null = null;
    const publish = () => {
      const cues = showing?.activeCues;
      const cue = cues && cues.length ? (cues[cues.length - 1] as VTTCue) : null;
      setCueShown(v, shown && cue ? { trackId: shown.id, label: shown.label, text: plainCue(cue.text) } : null);
    };
    const follow = () => {
      const next = Array.from(v.textTracks).find((t) => t.mode === 'showing') ?? null;
      if (next === showing) return;
      showing?.removeEventListener('cuechange', publish);
      showing = next;
      showing?.addEventListener('cuechange', publish);
      publish();
    };
    const changed = () => {
      apply();
      follow();
    };
    changed();
    // Tracks added later (a stream's renditions, a re-rendered <track>) follow the choice too.
    v.textTracks.addEventListener('addtrack', changed);
    return () => {
      v.textTracks.removeEventListener('addtrack', changed);
      showing?.removeEventListener('cuechange', publish);
      setCueShown(v, null);
    };
  }, [video, shown, native, tracks]);
  return shown;
}

/** The id a track's <track> element and its TextTrack carry. */
export const trackId = (t: Pick<PlayerCaption, 'id'>) => `cc-track-${t.id}`;

/** The <track> elements of a player's <video> (none where the browser's own HLS brings its own). */
export function CaptionTracks({ tracks, native = false }: { tracks: readonly PlayerCaption[]; native?: boolean }) {
  if (native) return null;
  return (
    <>
      {tracks.map((t) => (
        <track key={t.id} id={trackId(t)} kind={t.kind === 'captions' ? 'captions' : 'subtitles'} srcLang={t.language} label={t.label} src={t.src} />
      ))}
    </>
  );
}
