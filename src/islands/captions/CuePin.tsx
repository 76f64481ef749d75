// A note about a caption (issue 54): the note form's "Pin to the caption" with an optional
// wording to propose, and the pinned cue shown under a note (with staff's "Accept wording").
import { useState, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import { MAX_PROPOSAL, type NoteCue } from '../../shared/schemas/notes.ts';
import { Switch } from '../ui/Switch.tsx';
import { Textarea } from '../ui/Textarea.tsx';
import { $cueShown } from './cue-shown.ts';

export interface CuePinState {
  cue: { trackId: number; label: string; text: string } | null;
  pinned: boolean;
  setPinned: (on: boolean) => void;
  proposal: string;
  setProposal: (text: string) => void;
  /** The note body's fields: the track when pinned, the wording when one was typed. */
  body: () => { cueTrackId?: number; proposal?: string };
  reset: () => void;
}

/** The pin of the note form writing notes for `video`'s player. */
export function useCuePin(video: RefObject<HTMLVideoElement | null>): CuePinState {
  const shown = useStore($cueShown);
  const cue = shown && shown.video === video.current && shown.text ? shown : null;
  const [pinned, setPinned] = useState(false);
  const [proposal, setProposal] = useState('');
  const on = pinned && !!cue;
  return {
    cue,
    pinned: on,
    setPinned,
    proposal,
    setProposal,
    body: () => (on ? { cueTrackId: cue!.trackId, ...(proposal.trim() ? { proposal } : {}) } : {}),
    reset: () => {
      setPinned(false);
      setProposal('');
    },
  };
}

/** Shown while the player shows a cue: pin the note to it, and optionally propose its wording. */
export function CuePinFields({ pin }: { pin: CuePinState }) {
  if (!pin.cue) return null;
  return (
    <div className="space-y-2 rounded-md border border-line p-2" data-testid="cue-pin">
      <Switch label={`Pin to the caption (${pin.cue.label})`} description={`“${pin.cue.text}”`} checked={pin.pinned} onChange={pin.setPinned} />
      {pin.pinned && (
        <Textarea
          label="Propose a wording (optional)"
          rows={2}
          maxLength={MAX_PROPOSAL}
          value={pin.proposal}
          placeholder={pin.cue.text}
          onChange={(e) => pin.setProposal(e.target.value)}
        />
      )}
    </div>
  );
}

/** Under a note: the cue it is about, the wording it proposes and whether staff accepted it. */
export function NoteCueLine({ cue }: { cue: NoteCue }) {
  return (
    <span className="mt-1 block rounded bg-muted px-2 py-1 text-xs text-fg" data-testid="note-cue">
      <span className="block break-words">
        <span className="font-medium">Caption{cue.trackLabel ? ` (${cue.trackLabel})` : ''}:</span> “{cue.text}”
      </span>
      {cue.proposal != null && (
        <span className="block break-words">
          <span className="font-medium">Proposed:</span> “{cue.proposal}”
          {cue.acceptedAt && <span className="text-fg-muted">{` · Accepted${cue.acceptedRevision != null ? ` (revision ${cue.acceptedRevision})` : ''}`}</span>}
        </span>
      )}
    </span>
  );
}
