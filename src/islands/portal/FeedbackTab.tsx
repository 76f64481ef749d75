import { useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { MAX_PORTAL_TEXT, type ClientFeedback, type ClientMedia } from '../../shared/schemas/portal.ts';
import { toast } from '../../shared/toast.ts';
import { Button } from '../ui/Button.tsx';
import { Textarea } from '../ui/Textarea.tsx';
import { StarRating, Stars } from './StarRating.tsx';
import { $feedback } from './store.ts';
import { formatDate } from './format.ts';
import type { MediaVersion } from '../../shared/schemas/review.ts';
import { ReplyThread } from '../review/ReplyThread.tsx';

const MISSING = 'Please provide both feedback text and rating';

/** `version`: the version shown in the dialog (feedback is given on it and listed for it). */
export function FeedbackTab({ item, version }: { item: ClientMedia; version: MediaVersion | null }) {
  const all = useStore($feedback);
  const previous = all.filter((f) => f.mediaId === item.id && (!version || f.versionId === version.id));
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim() || rating < 1) {
      toast({ title: MISSING, variant: 'destructive' });
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const created = await apiJson<ClientFeedback>('POST', `/api/client/media/${item.id}/feedback`, {
        mediaId: item.id,
        feedbackText: text,
        rating,
        ...(version ? { versionId: version.id } : {}),
      });
      $feedback.set([created, ...$feedback.get()]);
      setText('');
      setRating(0);
      toast({ title: 'Feedback submitted successfully' });
    } catch (err) {
      // 001 §8: no error toast for a failed submission; the values stay for another try.
      setFailure(errorMessage(err));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-6">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Leave feedback">
        <StarRating value={rating} onChange={setRating} />
        <Textarea
          label="Comments"
          rows={4}
          value={text}
          maxLength={MAX_PORTAL_TEXT}
          onChange={(e) => setText(e.target.value)}
          placeholder="Share your thoughts on this media..."
        />
        {failure && (
          <p role="alert" className="text-sm text-danger">
            {failure}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={pending || !text.trim() || rating < 1}>
            {pending ? 'Submitting...' : 'Submit Feedback'}
          </Button>
          {(!text.trim() || rating < 1) && <p className="text-xs text-fg-muted">{MISSING}</p>}
        </div>
      </form>
      <section aria-labelledby={`prev-feedback-${item.id}`} className="space-y-3">
        <h3 id={`prev-feedback-${item.id}`} className="text-sm font-semibold">
          Previous Feedback
        </h3>
        {previous.length === 0 ? (
          <p className="text-sm text-fg-muted">No feedback yet.</p>
        ) : (
          <ul className="space-y-3" data-testid="feedback-list">
            {previous.map((f) => (
              <li key={f.id} className="rounded-lg border border-line p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Stars value={f.rating} />
                  <span className="text-xs text-fg-muted">
                    {f.clientUsername} · {formatDate(f.createdAt)}
                  </span>
                </div>
                <p className="mt-2 whitespace-pre-wrap break-words text-sm">{f.feedbackText}</p>
                <ReplyThread
                  replies={f.replies}
                  postUrl={`/api/client/media/feedback/${f.id}/replies`}
                  label="Reply to the studio about this feedback"
                  onReplied={(r) => $feedback.set($feedback.get().map((x) => (x.id === f.id ? { ...x, replies: [...x.replies, r] } : x)))}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
