import { useState } from 'react';
import { ImageIcon } from 'lucide-react';
import type { ClientMedia } from '../../shared/schemas/portal.ts';

/**
 * Card preview (001 §4): images fall back from the thumbnail to the full image, else a
 * placeholder; videos show their thumbnail or poster, or the video itself seeked to 2 seconds.
 */
export function MediaPreview({ item }: { item: ClientMedia }) {
  const candidates =
    item.type === 'image'
      ? [item.thumbnailWebpUrl, item.thumbnailUrl, item.webpUrl, item.url]
      : [item.thumbnailWebpUrl, item.thumbnailUrl, item.posterUrl];
  const sources = candidates.filter((s): s is string => !!s);
  const [attempt, setAttempt] = useState(0);
  const src = sources[attempt];

  if (src) {
    return (
      <img
        src={src}
        alt=""
        loading="lazy"
        decoding="async"
        onError={() => setAttempt((a) => a + 1)}
        className="h-full w-full object-cover"
      />
    );
  }
  if (item.type === 'video' && item.playbackUrl) {
    return <video src={`${item.playbackUrl}#t=2`} preload="metadata" muted playsInline tabIndex={-1} aria-hidden="true" className="h-full w-full object-cover" />;
  }
  // Every image source failed: show a placeholder instead of a broken image.
  return (
    <div className="flex h-full w-full items-center justify-center text-fg-muted" aria-hidden="true">
      <ImageIcon size={32} />
    </div>
  );
}
