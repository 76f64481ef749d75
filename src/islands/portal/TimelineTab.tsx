import { useState, type FormEvent, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { MAX_PORTAL_TEXT, type ClientMedia, type ClientTimelineNote } from '../../shared/schemas/portal.ts';
import { toast } from '../../shared/toast.ts';
import { Button } from '../ui/Button.tsx';
import { Textarea } from '../ui/Textarea.tsx';
import { MentionOffer, useMentions } from '../rounds/Mentions.tsx';
import { $notes, $notesError, loadNotes } from './store.ts';
import { formatTime } from './format.ts';
import type { MediaVersion } from '../../shared/schemas/review.ts';
import { NoteTime } from '../review/NoteTime.tsx';
import { NotesHeading } from '../review/NotesHeading.tsx';
import { ReplyThread } from '../review/ReplyThread.tsx';
import { LoopNoteButton, NoteMomentFields, noteEndBody, rangeError, type NoteClock } from '../review/player.tsx';
import { noteMs, noteTimeBody } from '../review/frames.ts';
import { DrawingText, DrawingTools, ShapesPreview, type Drawing } from '../review/DrawingLayer.tsx';
import { CuePinFields, NoteCueLine, useCuePin } from '../captions/CuePin.tsx';

export function TimelineTab({
  item,
  version,
  clock,
  onSeek,
  drawing,
  video,
}: {
  item: ClientMedia;
  /** The version shown in the dialog: notes are made on it and listed for it. */
  version: MediaVersion | null;
  /** The time field, following the dialog's player (pause, seeks and frame steps while paused). */
  clock: NoteClock;
  /** Pauses on a note's exact moment (milliseconds). */
  onSeek: (ms: number) => void;
  /** The drawing that goes with the next note (issue 29), laid over the dialog's picture. */
  drawing: Drawing;
  video: RefObject<HTMLVideoElement | null>;
}) {
  const all = useStore($notes);
  const loadError = useStore($notesError);
  const [hideResolved, setHideResolved] = useState(false);
  const notes = all
    .filter((n) => n.mediaId === item.id && (!version || n.versionId === version.id) && !(hideResolved && n.resolvedAt))
    .sort((a, b) => noteMs(a) - noteMs(b) || a.id - b.id);
  const duration = version?.durationSeconds ?? item.durationSeconds;
  const [text, setText] = useState('');
  const mentions = useMentions(`/api/client/media/${item.id}/mentionable`, text, setText);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const pin = useCuePin(video);
  // An image has no time: its notes are at 0 (issue 29, drawings on the picture).
  const isVideo = item.type === 'video';
  const ms = isVideo ? clock.ms : 0;
  const timeError =
    ms === null
      ? 'Timestamp must be a number of seconds, 0 or more'
      : duration != null && Math.floor(ms / 1000) > duration
        ? `Timestamp must not be beyond the end of the video (${formatTime(duration)})`
        : undefined;
  const endError = item.type === 'video' ? rangeError(clock, duration) : undefined;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) {
      toast({ title: 'Please enter a note', variant: 'destructive' });
      return;
    }
    if (timeError || endError || ms === null) return;
    // Read now, from the element when the field follows a paused playhead (useNoteClock).
    const at = isVideo ? clock.msToSave() : 0;
    if (at === null) return;
    setPending(true);
    setFailure(null);
    try {
      const created = await apiJson<ClientTimelineNote>('POST', `/api/client/media/${item.id}/timeline-notes`, {
        mediaId: item.id,
        // The exact moment (issue 29), with the documented whole seconds (001 §5) beside it.
        ...noteTimeBody(at),
        ...(item.type === 'video' ? noteEndBody(clock) : {}),
        noteText: text,
        ...(drawing.shapes.length ? { shapes: drawing.shapes } : {}),
        ...(version ? { versionId: version.id } : {}),
        ...pin.body(),
        ...mentions.body(),
      });
      $notes.set([...$notes.get(), created]);
      setText('');
      mentions.reset();
      clock.release();
      drawing.reset();
      pin.reset();
      toast({ title: 'Timeline note added successfully' });
    } catch (err) {
      // 001 §8: no error toast for a failed submission; the values stay for another try.
      setFailure(errorMessage(err));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-6">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Add a timeline note">
        {isVideo && (
          <NoteMomentFields
            label="Timestamp (seconds)"
            clock={clock}
            fps={version?.frameRate}
            startTimecode={version?.startTimecode ?? null}
            timeError={timeError}
            rangeError={endError}
            inputProps={{ type: 'number', min: 0, step: 'any', max: duration ?? undefined }}
          />
        )}
        <Textarea
          label="Note"
          rows={3}
          value={text}
          maxLength={MAX_PORTAL_TEXT}
          onChange={(e) => setText(e.target.value)}
          {...clock.draftEvents}
          placeholder="What should change at this moment? Type @ to mention a colleague."
        />
        <MentionOffer mentions={mentions} label="Colleagues to mention" />
        <CuePinFields pin={pin} />
        <DrawingTools drawing={drawing} video={video} />
        {failure && (
          <p role="alert" className="text-sm text-danger">
            {failure}
          </p>
        )}
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding...' : 'Add Note'}
        </Button>
      </form>
      <section aria-labelledby={`notes-${item.id}`} className="space-y-3">
        <NotesHeading id={`notes-${item.id}`} hideResolved={hideResolved} onHideResolved={setHideResolved} />
        {loadError && notes.length === 0 ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger">
            <span>{loadError}</span>
            <Button variant="outline" size="sm" onClick={() => void loadNotes()}>
              Retry
            </Button>
          </div>
        ) : notes.length === 0 ? (
          <p className="text-sm text-fg-muted">No timeline notes yet.</p>
        ) : (
          <ol className="space-y-2" data-testid="timeline-list">
            {notes.map((n) => (
              <li key={n.id} className="rounded-lg border border-line p-3" data-resolved={n.resolvedAt ? 'true' : undefined}>
                <div className="flex items-start gap-2">
                  <button
                    type="button"
                    onClick={() => onSeek(noteMs(n))}
                    disabled={item.type !== 'video'}
                    className="flex min-w-0 flex-1 gap-3 rounded text-left hover:bg-muted disabled:cursor-default disabled:hover:bg-transparent"
                  >
                    {/* Named by its content (time, text, state), so what is seen is what is announced. */}
                    <NoteTime seconds={n.timestampSeconds} ms={n.timestampMs} endMs={n.endMs} version={version} />
                    <span className={`min-w-0 flex-1 whitespace-pre-wrap break-words text-sm ${n.resolvedAt ? 'text-fg-muted line-through' : ''}`}>
                      {n.noteText}
                      {n.cue && <NoteCueLine cue={n.cue} />}
                    </span>
                    <ShapesPreview shapes={n.shapes} />
                    <DrawingText shapes={n.shapes} />
                    {n.resolvedAt && <span className="sr-only"> (resolved)</span>}
                    {item.type === 'video' && <span className="sr-only"> (jump to this moment)</span>}
                  </button>
                  {item.type === 'video' && n.endMs != null && n.endMs > noteMs(n) && <LoopNoteButton clock={clock} fromMs={noteMs(n)} toMs={n.endMs} fps={version?.frameRate} />}
                </div>
                <ReplyThread
                  replies={n.replies}
                  postUrl={`/api/client/media/timeline-notes/${n.id}/replies`}
                  mentionUrl={`/api/client/media/${item.id}/mentionable`}
                  label={`Reply to the studio about the note at ${formatTime(n.timestampSeconds)}`}
                  onReplied={(r) => $notes.set($notes.get().map((x) => (x.id === n.id ? { ...x, replies: [...x.replies, r] } : x)))}
                />
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
