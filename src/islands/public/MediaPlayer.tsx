import { useCallback, useLayoutEffect, useRef } from 'react';
import { X } from 'lucide-react';
import type { GridMedia } from '../../shared/public-media.ts';
import { useIsMobile, VideoStage } from './VideoStage.tsx';

export { CONTROLS_HIDE_MS, MOBILE_QUERY, SEEK_STEP, SKIP_SECONDS, VOLUME_STEP } from './VideoStage.tsx';

/**
 * The media player dialog (000 §2, §9): an image, or a video with play/pause, seek, skip
 * ±10 s, mute, volume, fullscreen and close. Desktop controls hide 3 s after the last mouse
 * movement; under 768 px the browser's own controls are used, full-screen.
 */
export default function MediaPlayer({ item, onClose }: { item: GridMedia; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const mobile = useIsMobile();

  const close = useCallback(() => {
    // Stops the film and rewinds it (it stays mounted until the parent drops the dialog).
    const v = dialog.current?.querySelector('video');
    if (v) {
      v.pause();
      v.currentTime = 0;
    }
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    dialog.current?.close();
    onClose();
  }, [onClose]);

  // A layout effect, so the dialog is open before the player's own effect focuses it.
  useLayoutEffect(() => {
    dialog.current?.showModal();
  }, []);

  const isVideo = item.type === 'video';
  const iconBtn = 'inline-flex h-10 w-10 items-center justify-center rounded-full text-white hover:bg-white/15';

  return (
    <dialog
      ref={dialog}
      aria-label={item.title}
      data-testid="media-player"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClick={(e) => e.target === dialog.current && close()}
      className={`m-auto overflow-hidden bg-black p-0 text-white backdrop:bg-black/85 ${
        mobile ? 'h-dvh max-h-none w-screen max-w-none' : 'w-[min(92vw,1200px)] max-w-none rounded-xl'
      }`}
    >
      <div className="flex items-center justify-between gap-4 px-4 py-3">
        <h2 className="truncate font-display text-lg">{item.title}</h2>
        <button type="button" onClick={close} aria-label="Close player" className={iconBtn}>
          <X size={20} aria-hidden="true" />
        </button>
      </div>
      {isVideo ? (
        <VideoStage item={item} autoplay layout="dialog" preload="auto" testId="player-video" />
      ) : (
        <picture>
          {item.webpUrl && <source type="image/webp" srcSet={item.webpUrl} />}
          <img
            src={item.url}
            alt={item.title}
            width={item.width ?? undefined}
            height={item.height ?? undefined}
            className={`mx-auto h-auto max-h-[85dvh] w-auto max-w-full object-contain ${mobile ? 'my-auto' : ''}`}
          />
        </picture>
      )}
    </dialog>
  );
}
