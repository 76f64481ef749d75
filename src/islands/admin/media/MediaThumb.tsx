import { useEffect, useState } from 'react';
import { ImageOff } from 'lucide-react';
import type { AdminMedia } from '../../../shared/schemas/media.ts';
import { PreparingPreview, useProcessingPoll } from '../../ui/playback.tsx';

/**
 * Card preview (001 §4): images fall back from the thumbnail to the full image, else hide;
 * videos show their poster, or seek to 2 s for a frame when there is none.
 */
export function MediaThumb({ item }: { item: AdminMedia }) {
  const [step, setStep] = useState(0);
  // The list is cached per library version; progress is polled live while not ready.
  const [live, setLive] = useState(item);
  useEffect(() => setLive(item), [item]);
  // Only while nothing plays: a card that plays (the original meanwhile) needs no progress.
  useProcessingPoll(live, item.type === 'video' && !item.playbackUrl ? `/api/media/${item.id}/processing` : null, setLive);
  if (item.type === 'video') {
    const poster = item.posterUrl ?? item.thumbnailWebpUrl ?? item.thumbnailUrl ?? undefined;
    if (!live.playbackUrl || live.processingStatus === 'failed') {
      return (
        <div className="relative h-full w-full bg-black">
          {poster && <img src={poster} alt="" className="absolute inset-0 h-full w-full object-cover opacity-40" />}
          <PreparingPreview item={live} compact className="absolute inset-0 bg-transparent" />
        </div>
      );
    }
    return (
      <video
        src={live.playbackUrl}
        poster={poster}
        preload={poster ? 'none' : 'metadata'}
        muted
        playsInline
        aria-label={item.title}
        data-testid="card-video"
        onLoadedMetadata={(e) => {
          if (!item.posterUrl) {
            const v = e.currentTarget;
            v.currentTime = Math.min(2, Number.isFinite(v.duration) ? v.duration / 2 : 2);
          }
        }}
        className="h-full w-full bg-black object-cover"
      />
    );
  }
  const sources = [item.thumbnailWebpUrl ?? item.thumbnailUrl, item.webpUrl ?? item.url].filter((s): s is string => !!s);
  const src = sources[step];
  if (!src) {
    return (
      <div className="flex h-full w-full items-center justify-center text-fg-muted" data-testid="card-image-hidden">
        <ImageOff size={28} aria-label="Preview unavailable" />
      </div>
    );
  }
  return <img src={src} alt="" loading="lazy" decoding="async" onError={() => setStep((s) => s + 1)} className="h-full w-full object-cover" />;
}
