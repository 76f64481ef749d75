// A small 16:9 preview of an image or video (the current background, a logo, a picker tile).
import { ImageOff, Video } from 'lucide-react';
import type { MediaRef } from './settings-api.ts';

export function MediaPreview({ media, fit = 'cover', className = '' }: { media: MediaRef | null; fit?: 'cover' | 'contain'; className?: string }) {
  const box = `relative aspect-video w-full overflow-hidden rounded-md bg-muted ${className}`;
  if (!media) {
    return (
      <div className={`${box} flex items-center justify-center text-fg-muted`}>
        <ImageOff size={20} aria-hidden="true" />
        <span className="sr-only">None</span>
      </div>
    );
  }
  const fitClass = fit === 'cover' ? 'object-cover' : 'object-contain';
  if (media.type === 'video') {
    const still = media.posterUrl ?? media.thumbnailWebpUrl ?? media.thumbnailUrl;
    return (
      <div className={box}>
        {still ? (
          <img src={still} alt="" className={`h-full w-full ${fitClass}`} loading="lazy" decoding="async" />
        ) : (
          // No still yet: the first frame of the video itself.
          <video src={`${media.url}#t=0.1`} muted playsInline preload="metadata" className={`h-full w-full ${fitClass}`} aria-hidden="true" />
        )}
        <span className="absolute left-2 top-2 inline-flex items-center gap-1 rounded bg-black/70 px-1.5 py-0.5 text-xs text-white">
          <Video size={12} aria-hidden="true" /> Video
        </span>
      </div>
    );
  }
  return (
    <div className={box}>
      <img src={media.thumbnailWebpUrl ?? media.thumbnailUrl ?? media.webpUrl ?? media.url} alt="" className={`h-full w-full ${fitClass}`} loading="lazy" decoding="async" />
    </div>
  );
}
