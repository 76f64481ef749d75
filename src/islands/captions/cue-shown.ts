// The caption cue a player shows right now (issue 54), for the note form beside it: a note may be
// pinned to that cue and propose a wording for it. Every player publishes its own (keyed by its
// <video>), so a form reads the one of the player it writes notes for.
import { atom } from 'nanostores';

export interface ShownCue {
  video: HTMLVideoElement;
  trackId: number;
  label: string;
  /** The cue's words without styling. */
  text: string;
}

export const $cueShown = atom<ShownCue | null>(null);

/** Sets (or clears) what `video` shows; another player's cue is left alone when clearing. */
export function setCueShown(video: HTMLVideoElement, cue: Omit<ShownCue, 'video'> | null): void {
  const cur = $cueShown.get();
  if (cue) $cueShown.set({ video, ...cue });
  else if (cur?.video === video) $cueShown.set(null);
}

/** A WebVTT cue's text as read: tags gone, the three entities read. */
export const plainCue = (text: string) => text.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
