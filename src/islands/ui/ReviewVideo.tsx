// The review player of the admin detail dialog and the portal dialog: the item's playable
// file (a review proxy, quality menu, frame previews on the seek bar), or "Preparing
// preview... 42%" while there is none yet, with the reason and Retry for staff on failure.
import { useEffect, useState, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import { toast } from '../../shared/toast.ts';
import { errorMessage } from '../../shared/api.ts';
import { PreparingPreview, ReviewBar, retryProcessing, useProcessingPoll, useQuality, type PlayableItem } from './playback.tsx';
import { PlayerArea, markDraggedRange, seekToNote, type NoteClock } from '../review/player.tsx';
import { NoteMarkers, type MarkerNote } from '../review/NoteMarkers.tsx';
import { PictureFrame } from '../review/DrawingLayer.tsx';

interface Props<T extends PlayableItem> {
  item: T & { id: number; title: string; posterUrl: string | null };
  videoRef: RefObject<HTMLVideoElement | null>;
  /** GET endpoint of the item's live processing state. */
  pollUrl: string;
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
  /** Start playing once the first source is in place (the portal dialog, 001 §4). */
  autoPlay?: boolean;
}

export function ReviewVideo<T extends PlayableItem>({ item, videoRef, pollUrl, canRetry = false, className, testId, onPause, onSeeked, frameRate, markers, overlay, clock, autoPlay = false }: Props<T>) {
  const [live, setLive] = useState<PlayableItem>(item);
  useEffect(() => setLive(item), [item]);
  useProcessingPoll(live, pollUrl, setLive);
  const quality = useQuality(live, videoRef, { stream: true, autoPlay });
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
          ref={videoRef}
          // No src prop: useQuality sets the source (a stream or a file).
          data-stream={quality.via}
          poster={item.posterUrl ?? undefined}
          controls
          playsInline
          preload="metadata"
          data-testid={testId}
          onLoadedMetadata={quality.onLoadedMetadata}
          onPause={onPause}
          onSeeked={onSeeked}
          aria-label={`Video: ${item.title}`}
          className={`w-full rounded-lg bg-black object-contain ${className}`}
        />
      </PictureFrame>
      {live.processingStatus === 'ready' ? (
        <ReviewBar
          video={videoRef}
          item={live}
          quality={quality}
          markers={
            markers?.length || clock
              ? (duration) => (
                  <NoteMarkers
                    notes={markers ?? []}
                    duration={duration}
                    fps={frameRate}
                    onSeek={(ms) => seekToNote(videoRef.current, ms, frameRate)}
                    onRange={clock ? (fromMs, toMs) => markDraggedRange(clock, videoRef.current, fromMs, toMs) : undefined}
                  />
                )
              : undefined
          }
        />
      ) : (
        <div className="mt-2">
          <PreparingPreview item={live} onRetry={retry} compact className="rounded-lg py-2" />
        </div>
      )}
    </PlayerArea>
  );
}
