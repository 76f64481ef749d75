// Mute and volume for the players with their own controls (the public film player and the
// review players): a Mute/Unmute button and a Volume slider (step 0.01; 0 means muted).
import { useEffect, useState, type RefObject } from 'react';
import { Volume2, VolumeX } from 'lucide-react';
import { Tooltip } from './Tooltip.tsx';

export const VOLUME_STEP = 0.01;

export function VolumeControl({ video, buttonClass, sliderClass }: { video: RefObject<HTMLVideoElement | null>; buttonClass: string; sliderClass: string }) {
  const [muted, setMuted] = useState(false);
  const [volume, setVolume] = useState(1);
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const on = () => {
      setMuted(v.muted);
      setVolume(v.volume);
    };
    on();
    v.addEventListener('volumechange', on);
    return () => v.removeEventListener('volumechange', on);
  }, [video]);
  return (
    <>
      <Tooltip label={muted ? 'Unmute' : 'Mute'} side="top">
        <button
          type="button"
          onClick={() => {
            const v = video.current;
            if (!v) return;
            const next = !v.muted;
            v.muted = next;
            // Unmuting at volume 0 would still be silent: bring the sound back.
            if (!next && v.volume === 0) v.volume = 1;
            // State now, as the slider does: volumechange arrives later, and the slider
            // would meanwhile still show the old (muted) value.
            setMuted(next);
            setVolume(v.volume);
          }}
          aria-label={muted ? 'Unmute' : 'Mute'}
          className={buttonClass}
        >
          {muted || volume === 0 ? <VolumeX size={18} aria-hidden="true" /> : <Volume2 size={18} aria-hidden="true" />}
        </button>
      </Tooltip>
      <input
        type="range"
        aria-label="Volume"
        min={0}
        max={1}
        step={VOLUME_STEP}
        value={muted ? 0 : volume}
        onChange={(e) => {
          const v = video.current;
          if (!v) return;
          const next = Number(e.target.value);
          v.volume = next;
          v.muted = next === 0;
          // Set state now: volumechange arrives later, and a re-render before it
          // would put the controlled slider back to the old value.
          setVolume(next);
          setMuted(next === 0);
        }}
        className={sliderClass}
      />
    </>
  );
}
