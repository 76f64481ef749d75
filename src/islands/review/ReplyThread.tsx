import { useState, type FormEvent } from 'react';
import type { Reply } from '../../shared/schemas/review.ts';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { formatDate } from '../../shared/format.ts';
import { toast } from '../../shared/toast.ts';
import { Button } from '../ui/Button.tsx';
import { MentionOffer, useMentions } from '../rounds/Mentions.tsx';

/**
 * Replies under one piece of feedback or one timeline note, and a form to add one (issue 16).
 * `postUrl` is the endpoint for the signed-in side (staff or client); `source: 'link'` (staff
 * only) answers a share-link visitor's comment, whose ids are their own (issue 29).
 */
export function ReplyThread({
  replies,
  postUrl,
  label,
  onReplied,
  source,
  mentionUrl,
}: {
  replies: Reply[];
  postUrl: string;
  label: string;
  onReplied: (r: Reply) => void;
  source?: 'link';
  /** Where the people this reply may @mention come from (a timeline note's thread, issue 57). */
  mentionUrl?: string;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const mentions = useMentions(mentionUrl ?? '', text, setText);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    setPending(true);
    try {
      const reply = await apiJson<Reply>('POST', postUrl, { text, ...(source ? { source } : {}), ...mentions.body() });
      onReplied(reply);
      setText('');
      mentions.reset();
      setOpen(false);
    } catch (err) {
      toast({ title: 'Could not send the reply', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="mt-2 space-y-2">
      {replies.length > 0 && (
        <ul className="space-y-1.5 border-l-2 border-line pl-3" aria-label="Replies" data-testid="replies">
          {replies.map((r) => (
            <li key={r.id} className="text-sm">
              <span className="font-medium">{r.by === 'staff' ? `${r.author} (studio)` : r.author}</span>
              <span className="text-xs text-fg-muted">{` · ${formatDate(r.createdAt)}`}</span>
              <p className="whitespace-pre-line">{r.text}</p>
            </li>
          ))}
        </ul>
      )}
      {open ? (
        <form onSubmit={submit} className="space-y-2">
          <label className="sr-only" htmlFor={`reply-${postUrl}${source ? `-${source}` : ''}`}>
            {label}
          </label>
          <textarea
            id={`reply-${postUrl}${source ? `-${source}` : ''}`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={2}
            maxLength={5000}
            placeholder="Write a reply…"
            className="w-full rounded-md border border-line bg-raised px-3 py-2 text-sm"
            autoFocus
          />
          {mentionUrl && <MentionOffer mentions={mentions} label="People to mention" />}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={pending || !text.trim()}>
              Send reply
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(true)} aria-label={label}>
          Reply
        </Button>
      )}
    </div>
  );
}
