// Opening a player at a moment (issue 54, a search hit): the hit's version is shown, then the
// player pauses on its frame as soon as it can seek. One hook for the admin dialog and the portal's.
import { useEffect, useRef, type RefObject } from 'react';
import { seekToNote } from './player.tsx';

/** Where to open: the version (null: the one shown) and the time. */
export interface OpenAt {
  versionId: number | null;
  ms: number;
}

export function useOpenAt(
  openAt: OpenAt | null,
  video: RefObject<HTMLVideoElement | null>,
  versions: readonly { id: number }[] | null,
  shown: { id: number; frameRate?: number | null } | null,
  setShownId: (id: number) => void,
): void {
  const pending = useRef<OpenAt | null>(null);
  useEffect(() => {
    pending.current = openAt;
    if (openAt?.versionId != null && versions?.some((v) => v.id === openAt.versionId)) setShownId(openAt.versionId);
  }, [openAt, versions]);
  useEffect(() => {
    const at = pending.current;
    const v = video.current;
    if (!at || !v || !shown || (at.versionId != null && at.versionId !== shown.id)) return;
    const go = () => {
      pending.current = null;
      seekToNote(v, at.ms, shown.frameRate);
    };
    if (v.readyState >= HTMLMediaElement.HAVE_METADATA) go();
    else {
      v.addEventListener('loadedmetadata', go, { once: true });
      return () => v.removeEventListener('loadedmetadata', go);
    }
  }, [shown?.id, openAt]);
}
