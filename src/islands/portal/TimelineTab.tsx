import { useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { MAX_PORTAL_TEXT, type ClientMedia, type ClientTimelineNote } from '../../shared/schemas/portal.ts';
import { toast } from '../../shared/toast.ts';
import { Button } from '../ui/Button.tsx';
import { Field } from '../ui/Field.tsx';
import { Textarea } from '../ui/Textarea.tsx';
import { $notes } from './store.ts';
import { formatTime } from './format.ts';
import type { MediaVersion } from '../../shared/schemas/review.ts';
import { NoteTime } from '../review/NoteTime.tsx';
import { NotesHeading } from '../review/NotesHeading.tsx';
import { ReplyThread } from '../review/ReplyThread.tsx';

export function TimelineTab({
  item,
  version,
  timestamp,
  onTimestampChange,
  onSeek,
}: {
  item: ClientMedia;
  /** The version shown in the dialog: notes are made on it and listed for it. */
  version: MediaVersion | null;
  /** The input's text; the dialog fills it when the video is paused. */
  timestamp: string;
  onTimestampChange: (value: string) => void;
  onSeek: (seconds: number) => void;
}) {
  const all = useStore($notes);
  const [hideResolved, setHideResolved] = useState(false);
  const notes = all
    .filter((n) => n.mediaId === item.id && (!version || n.versionId === version.id) && !(hideResolved && n.resolvedAt))
    .sort((a, b) => a.timestampSeconds - b.timestampSeconds || a.id - b.id);
  const duration = version?.durationSeconds ?? item.durationSeconds;
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const seconds = timestamp.trim() === '' ? 0 : Number(timestamp);
  const timeError =
    !Number.isFinite(seconds) || seconds < 0
      ? 'Timestamp must be a number of seconds, 0 or more'
      : duration != null && Math.floor(seconds) > duration
        ? `Timestamp must not be beyond the end of the video (${formatTime(duration)})`
        : undefined;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) {
      toast({ title: 'Please enter a note', variant: 'destructive' });
      return;
    }
    if (timeError) return;
    setPending(true);
    setFailure(null);
    try {
      const created = await apiJson<ClientTimelineNote>('POST', `/api/client/media/${item.id}/timeline-notes`, {
        mediaId: item.id,
        // Whole seconds, rounded down (001 §5).
        timestampSeconds: Math.floor(seconds),
        noteText: text,
        ...(version ? { versionId: version.id } : {}),
      });
      $notes.set([...$notes.get(), created]);
      setText('');
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
        <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
          <Field
            label="Timestamp (seconds)"
            type="number"
            inputMode="decimal"
            min={0}
            step={0.1}
            max={duration ?? undefined}
            value={timestamp}
            onChange={(e) => onTimestampChange(e.target.value)}
            error={timeError}
            hint={item.type === 'video' ? 'Pause the video to fill this in.' : undefined}
          />
          <p className="pb-2 text-sm text-fg-muted" aria-live="polite">
            Time: <span data-testid="formatted-time" className="font-mono text-fg">{formatTime(timeError ? 0 : seconds)}</span>
          </p>
        </div>
        <Textarea
          label="Note"
          rows={3}
          value={text}
          maxLength={MAX_PORTAL_TEXT}
          onChange={(e) => setText(e.target.value)}
          placeholder="What should change at this moment?"
        />
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
        {notes.length === 0 ? (
          <p className="text-sm text-fg-muted">No timeline notes yet.</p>
        ) : (
          <ol className="space-y-2" data-testid="timeline-list">
            {notes.map((n) => (
              <li key={n.id} className="rounded-lg border border-line p-3" data-resolved={n.resolvedAt ? 'true' : undefined}>
                <button
                  type="button"
                  onClick={() => onSeek(n.timestampSeconds)}
                  disabled={item.type !== 'video'}
                  className="flex w-full gap-3 rounded text-left hover:bg-muted disabled:cursor-default disabled:hover:bg-transparent"
                >
                  {/* Named by its content (time, text, state), so what is seen is what is announced. */}
                  <NoteTime seconds={n.timestampSeconds} version={version} />
                  <span className={`min-w-0 whitespace-pre-wrap break-words text-sm ${n.resolvedAt ? 'text-fg-muted line-through' : ''}`}>{n.noteText}</span>
                  {n.resolvedAt && <span className="sr-only"> (resolved)</span>}
                  {item.type === 'video' && <span className="sr-only"> (jump to this moment)</span>}
                </button>
                <ReplyThread
                  replies={n.replies}
                  postUrl={`/api/client/media/timeline-notes/${n.id}/replies`}
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
