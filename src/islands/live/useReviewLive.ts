// A review dialog's part in a live session (issue 41), shared by the admin and the portal
// dialog: the session on the version shown and its drawing, the compare view it presents or
// follows, and the picture's drawings with the other participants' pointers and strokes on top.
import { useMemo, useState, type RefObject } from 'react';
import type { CompareSelection } from '../review/CompareView.tsx';
import type { Drawing, NoteDrawing } from '../review/DrawingLayer.tsx';
import { useLiveSession } from './useLiveSession.ts';

export interface ReviewLiveOptions {
  mediaId: number;
  videoRef: RefObject<HTMLVideoElement | null>;
  /** The version shown (its id and frame rate), null until the versions are known. */
  shown: { id: number; frameRate?: number | null } | null;
  /** Shows another version: the presenter switched. */
  setShownId: (versionId: number) => void;
  drawing: Drawing;
  /** The compare view's open state as the dialog keeps it: null when closed. */
  comparing: string | null;
  setComparing: (value: string | null) => void;
  /** The notes' own drawings on the version shown. */
  drawings: NoteDrawing[];
}

export function useReviewLive({ mediaId, videoRef, shown, setShownId, drawing, comparing, setComparing, drawings }: ReviewLiveOptions) {
  // What this dialog's compare view shows (sent while presenting), and what a presenter's
  // compare view shows (put on this one while following).
  const [compareSel, setCompareSel] = useState<CompareSelection | null>(null);
  const [followCompare, setFollowCompare] = useState<CompareSelection | null>(null);
  const session = useLiveSession({
    mediaId,
    videoRef,
    fps: shown?.frameRate,
    versionId: shown?.id ?? null,
    onVersion: setShownId,
    shapes: drawing.shapes,
    compare: comparing !== null ? compareSel : null,
    onCompare: (c) => {
      setFollowCompare(c);
      setComparing(c ? '' : null);
    },
  });
  const shownDrawings = useMemo(() => (session.overlays.length ? [...drawings, ...session.overlays] : drawings), [drawings, session.overlays]);
  return { session, shownDrawings, setCompareSel, followCompare: session.following ? followCompare : null };
}
