// The review player of the admin detail dialog and the portal dialog: the item's playable
// file (a review proxy, quality menu, frame previews on the seek bar) under one transport of
// our own (ReviewTransport: no browser controls), or "Preparing preview... 42%" while there is
// none yet, with the reason and Retry for staff on failure.
import { useEffect, useState, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import { toast } from '../../shared/toast.ts';
import { errorMessage } from '../../shared/api.ts';
import { PreparingPreview, retryProcessing, useProcessingPoll, useQuality, type PlayableItem } from './playback.tsx';
import { ReviewTransport, togglePlay } from './ReviewTransport.tsx';
import { PlayerArea, markDraggedRange, seekToNote, type NoteClock } from '../review/player.tsx';
import { NoteMarkers, type MarkerNote } from '../review/NoteMarkers.tsx';
import { PictureFrame } from '../review/DrawingLayer.tsx';
import { CaptionTracks, folderOf, useCaptionIndex, useShownCaptions } from '../captions/useCaptions.tsx';
import { useSettledPauses } from './paused-frame.ts';

interface Props<T extends PlayableItem> {
  item: T & { id: number; title: string; posterUrl: string | null };
  videoRef: RefObject<HTMLVideoElement | null>;
  /** GET endpoint of the item's live processing state (none on a share page: the page polls its own view). */
  pollUrl?: string | null;
  /** Staff with edit:media: a failed item gets a Retry button. */
  canRetry?: boolean;
  className: string;
  testId?: string;
  onPause?: (e: SyntheticEvent<HTMLVideoElement>) => void;
  /** A seek finished (the time field follows seeks and frame steps while paused). */
  onSeeked?: (e: SyntheticEvent<HTMLVideoElement>) => void;
  /** The version's frames per second, for stepping one frame with , and . (else 25). */
  frameRate?: number | null;
  /** Markers on the seek bar: the notes of the version shown (issue 29). */
  markers?: MarkerNote[];
  /** Laid over the video in a positioned box (the drawing layer, issue 29). */
  overlay?: ReactNode;
  /** The note form's clock: the player's I and O keys and a drag on the marker strip mark its range, and it says what to loop. */
  clock?: NoteClock;
  /** Whether a drag on the marker strip marks a range (a share link without notes: no); the strip then shows only with markers. */
  canMark?: boolean;
}

export function ReviewVideo<T extends PlayableItem>({ item, videoRef, pollUrl = null, canRetry = false, className, testId, onPause, onSeeked, frameRate, markers, overlay, clock, canMark = true }: Props<T>) {
  const [live, setLive] = useState<PlayableItem>(item);
  useEffect(() => setLive(item), [item]);
  useProcessingPoll(live, pollUrl, setLive);
  const quality = useQuality(live, videoRef, { stream: true });
  // The version's captions (issue 54), from the folder its file plays from (/media/… or a link's).
  const captions = useCaptionIndex(folderOf(live.playbackUrl));
  const native = quality.via === 'native';
  useShownCaptions(videoRef, captions.tracks, native);
  // A pause stays on the frame painted, and the time says so (issue 51).
  const videoEl = useSettledPauses(videoRef, frameRate);
  const retry = canRetry
    ? () => {
        retryProcessing(item.id).then(
          (next) => setLive((cur) => ({ ...cur, ...next })),
          (e) => toast({ title: 'Could not retry', description: errorMessage(e), variant: 'destructive' }),
        );
      }
    : undefined;
  if (!quality.src) return <PreparingPreview item={live} onRetry={retry} className={`rounded-lg ${className}`} />;
  return (
    <PlayerArea videoRef={videoRef} fps={frameRate} label={`Player: ${item.title}`} clock={clock}>
      <PictureFrame overlay={overlay}>
        <video
          ref={videoEl}
          // No src prop: useQuality sets the source (a stream or a file).
          data-stream={quality.via}
          poster={item.posterUrl ?? undefined}
          playsInline
          preload="metadata"
          // Focusable by script and click (a note's jump focuses it, so , and . step at once),
          // not a tab stop of its own: the player area is.
          tabIndex={-1}
          data-testid={testId}
          onClick={(e) => togglePlay(e.currentTarget)}
          onLoadedMetadata={quality.onLoadedMetadata}
          onPause={onPause}
          onSeeked={onSeeked}
          aria-label={`Video: ${item.title}`}
          className={`w-full rounded-lg bg-black object-contain ${className} [:fullscreen_&]:h-full`}
        >
          <CaptionTracks tracks={captions.tracks} native={native} />
        </video>
      </PictureFrame>
      <ReviewTransport
        video={videoRef}
        item={live}
        quality={quality}
        captions={captions}
        markers={
          markers?.length || (clock && canMark)
            ? (duration) => (
                <NoteMarkers
                  notes={markers ?? []}
                  duration={duration}
                  fps={frameRate}
                  onSeek={(ms) => seekToNote(videoRef.current, ms, frameRate)}
                  onRange={clock && canMark ? (fromMs, toMs) => markDraggedRange(clock, videoRef.current, fromMs, toMs) : undefined}
                />
              )
            : undefined
        }
      />
      {/* The original plays while its proxies are made: the transport works, and this says why there is no quality menu yet. */}
      {live.processingStatus !== 'ready' && (
        <div className="mt-2">
          <PreparingPreview item={live} onRetry={retry} compact className="rounded-lg py-2" />
        </div>
      )}
    </PlayerArea>
  );
}
