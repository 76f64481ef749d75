// The CC menu of every player (issue 54): Off and the version's tracks; the choice holds for
// every player of the browser (choice.ts). Beside it in the review players, the caption files
// the viewer may download.
import { useStore } from '@nanostores/react';
import { Download } from 'lucide-react';
import { CAPTION_CHOICE_OFF } from '../../shared/caption-choice.ts';
import type { CaptionIndex, PlayerCaption } from '../../shared/schemas/captions.ts';
import { Menu, type MenuItem } from '../ui/Menu.tsx';
import { $captionChoice, chooseCaptions, choiceOf, trackFor } from './choice.ts';

export function CaptionsMenu({ tracks, className = '' }: { tracks: readonly PlayerCaption[]; className?: string }) {
  const choice = useStore($captionChoice);
  if (!tracks.length) return null;
  const shown = trackFor(tracks, choice);
  return (
    <label className={`inline-flex items-center gap-1 text-xs ${className}`}>
      <span aria-hidden="true" className="rounded border border-white/60 px-1 text-[10px] font-semibold leading-4">
        CC
      </span>
      <select
        value={shown ? choiceOf(shown) : CAPTION_CHOICE_OFF}
        onChange={(e) => chooseCaptions(e.target.value)}
        aria-label="Captions"
        data-testid="captions-menu"
        className="max-w-32 rounded-md border border-white/20 bg-black/60 px-2 py-1 text-xs text-white focus-visible:outline-2 focus-visible:outline-accent"
      >
        <option value={CAPTION_CHOICE_OFF}>Off</option>
        {tracks.map((t) => (
          <option key={t.id} value={choiceOf(t)}>
            {t.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The caption files a review player's viewer may download (none: nothing shown, or why not). */
export function CaptionDownloads({ index, buttonClass }: { index: CaptionIndex; buttonClass: string }) {
  const items: MenuItem[] = index.tracks.flatMap((t) =>
    t.downloads
      ? [
          { label: `${t.label}: SRT`, href: t.downloads.srt, download: true },
          { label: `${t.label}: WebVTT`, href: t.downloads.vtt, download: true },
          { label: `${t.label}: file as uploaded`, href: t.downloads.original, download: true },
          ...(t.downloads.burnt ? [{ label: `${t.label}: video with open captions`, href: t.downloads.burnt, download: true }] : []),
        ]
      : [],
  );
  if (!items.length) {
    return index.downloadBlockedReason ? (
      <span className="sr-only" data-testid="caption-downloads-blocked">
        Caption files: {index.downloadBlockedReason}
      </span>
    ) : null;
  }
  return (
    <Menu
      label="Caption files"
      items={items}
      align="end"
      trigger={<Download size={16} aria-hidden="true" />}
      triggerClassName={buttonClass}
      triggerTestId="caption-downloads"
    />
  );
}
