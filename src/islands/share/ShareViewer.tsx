// A share link's page for a visitor without an account (issue 17): the link's items with only
// the files it allows, and, when the link allows them, timeline notes and feedback under a
// guest name typed once, the approval decision, and downloads.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { CheckCircle2, Download, Film } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { formatDateTime, formatTimestamp } from '../../shared/format.ts';
import { toast } from '../../shared/toast.ts';
import { MAX_PORTAL_TEXT } from '../../shared/schemas/portal.ts';
import { GUEST_NAME_MAX, type ShareComment, type ShareItem, type ShareView } from '../../shared/schemas/share.ts';
import { Button, buttonClass } from '../ui/Button.tsx';
import { Field } from '../ui/Field.tsx';
import { Textarea } from '../ui/Textarea.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { ApprovalBadge } from '../review/ApprovalBadge.tsx';
import { NoteTime } from '../review/NoteTime.tsx';
import { BlockedDownload } from '../review/BlockedDownload.tsx';
import { StarRating, Stars } from '../portal/StarRating.tsx';
import { LoopNoteButton, NoteMomentFields, noteEndBody, rangeError, seekToNote, useNoteClock } from '../review/player.tsx';
import { noteMs, noteTimeBody } from '../review/frames.ts';
import { noteMarkers } from '../review/markers.ts';
import { DrawingLayer, DrawingText, DrawingTools, PictureFrame, ShapesPreview, noteDrawings, useDrawing, type Drawing } from '../review/DrawingLayer.tsx';
import { ReviewVideo } from '../ui/ReviewVideo.tsx';
import { CuePinFields, NoteCueLine, useCuePin } from '../captions/CuePin.tsx';
import { useStore } from '@nanostores/react';
import { $live } from '../live/channel.ts';
import { useLiveReload, usePollWhileOffline } from '../live/useLive.ts';
import { useLiveSession } from '../live/useLiveSession.ts';
import { LivePanel } from '../live/LivePanel.tsx';
import { LibrarySearch } from '../review/LibrarySearch.tsx';
import { useOpenAt, type OpenAt } from '../review/open-at.ts';

const POLL_MS = 4000;

interface Shared {
  token: string;
  view: ShareView;
  name: string;
  onChanged: (next: Partial<ShareView>) => void;
}

export default function ShareViewer({ token, studio, initial }: { token: string; studio: string; initial: ShareView }) {
  const [view, setView] = useState(initial);
  const [name, setName] = useState(initial.guestName);
  // A search hit (issue 54) opens its item's player paused at its moment; `n` makes a second
  // click on the same hit a new request.
  const [jump, setJump] = useState<(OpenAt & { mediaId: number; n: number }) | null>(null);
  const pending = view.items.some((i) => i.previewPending);

  const reload = () => apiJson<ShareView>('GET', `/api/share/${token}`).then(setView, () => {});
  // Live (issue 41): notes, replies, decisions, new versions, finished previews and the link's
  // own changes show at once. Without a stream, watermarked previews (made after the link) are
  // looked for every 4 s until every one is there.
  useLiveReload(['note', 'feedback', 'reply', 'approval', 'version', 'processing', 'preview', 'media', 'link'], () => void reload(), (topic, data) => topic !== 'processing' || data.status === 'ready');
  usePollWhileOffline(() => void reload(), POLL_MS, { enabled: pending });
  const live = useStore($live);
  if (live.closed === 'link-gone') {
    return (
      <main className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
        <EmptyState title="This link is no longer available" description="It may have expired or been switched off. Ask the studio for a new one." />
      </main>
    );
  }

  const writes = view.allowComment || view.allowApprove;
  const shared: Shared = { token, view, name: name.trim(), onChanged: (next) => setView((cur) => ({ ...cur, ...next })) };
  return (
    <main className="mx-auto max-w-5xl space-y-8 px-4 py-8 sm:px-6">
      <header className="space-y-1">
        <p className="text-xs uppercase tracking-wide text-fg-muted">{studio}</p>
        <h1 className="text-2xl font-semibold">{view.name}</h1>
        <p className="text-sm text-fg-muted">
          {view.items.length} {view.items.length === 1 ? 'item' : 'items'} shared with you
          {view.expiresAt && <> · available until {formatDateTime(view.expiresAt)}</>}
          {view.watermark && <> · watermarked preview</>}
        </p>
      </header>
      {writes && (
        <div className="max-w-sm">
          <Field
            label="Your name"
            hint="Shown with your notes and decisions, so the studio knows who wrote them."
            value={name}
            maxLength={GUEST_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
            autoComplete="name"
          />
        </div>
      )}
      {view.items.some((i) => i.type === 'video') && (
        <LibrarySearch endpoint={`/api/share/${token}/search`} onOpen={(hit) => setJump((j) => ({ mediaId: hit.mediaId, versionId: hit.versionId, ms: hit.atMs, n: (j?.n ?? 0) + 1 }))} />
      )}
      {view.items.length === 0 ? (
        <EmptyState title="Nothing here any more" description="The items of this link have been removed." />
      ) : (
        view.items.map((item) => <ItemPanel key={item.id} item={item} shared={shared} jump={jump?.mediaId === item.id ? jump : null} />)
      )}
    </main>
  );
}

function ItemPanel({ item, shared, jump }: { item: ShareItem; shared: Shared; jump: OpenAt | null }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const shownVersion = useMemo(() => ({ id: item.versionId, frameRate: item.frameRate }), [item.versionId, item.frameRate]);
  useOpenAt(jump, videoRef, [shownVersion], shownVersion, () => {});
  useEffect(() => {
    if (jump) panelRef.current?.scrollIntoView({ block: 'start' });
  }, [jump]);
  const clock = useNoteClock(videoRef);
  const comments = shared.view.comments.filter((c) => c.mediaId === item.id);
  const notes = comments.filter((c) => c.kind === 'note').sort((a, b) => noteMs(a) - noteMs(b) || a.id - b.id);
  const feedback = comments.filter((c) => c.kind === 'feedback');
  const allComments = shared.view.comments;
  const markers = useMemo(
    () => noteMarkers(allComments.filter((c) => c.mediaId === item.id && c.kind === 'note'), (c) => ({ author: c.guestName, text: c.text })),
    [allComments, item.id],
  );
  const drawings = useMemo(() => noteDrawings(allComments.filter((c) => c.mediaId === item.id && c.kind === 'note')), [allComments, item.id]);
  const drawing = useDrawing();
  // Live review (issue 41), on links that allow comments: this page follows the studio's player
  // (the current version only: a link shows no other).
  const session = useLiveSession({ mediaId: item.id, videoRef, fps: item.frameRate, versionId: item.versionId, shapes: drawing.shapes });
  const otherVersion = session.joined && session.state && session.state.versionId !== item.versionId ? 'The presenter is showing another version of this item, which this link does not show.' : null;
  const shownDrawings = useMemo(() => (session.overlays.length ? [...drawings, ...session.overlays] : drawings), [drawings, session.overlays]);
  // Visitors draw only on links that allow comments; everyone sees the notes' drawings.
  const layer = <DrawingLayer notes={shownDrawings} fps={item.frameRate} drawing={shared.view.allowComment ? drawing : null} />;
  const seek = (ms: number) => seekToNote(videoRef.current, ms, item.frameRate);
  return (
    <section ref={panelRef} aria-labelledby={`item-${item.id}`} className="space-y-4 rounded-xl border border-line bg-raised p-4 sm:p-6" data-testid="share-item">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h2 id={`item-${item.id}`} className="min-w-0 break-words text-lg font-semibold">
            {item.title}
          </h2>
          <span className="whitespace-nowrap rounded bg-muted px-1.5 py-0.5 text-xs font-medium">v{item.version}</span>
          <ApprovalBadge status={item.approval.status} locked={item.approval.locked} />
        </div>
        {item.downloadUrl ? (
          <a href={item.downloadUrl} download className={buttonClass('outline', 'sm')}>
            <Download size={16} aria-hidden="true" /> Download
          </a>
        ) : item.downloadBlockedReason ? (
          <BlockedDownload reason={item.downloadBlockedReason} size="sm" />
        ) : null}
      </div>
      {item.type === 'video' && shared.view.allowComment && <LivePanel session={session} fps={item.frameRate} versionMismatch={otherVersion} />}
      <Media item={item} videoRef={videoRef} clock={clock} markers={markers} overlay={layer} canMark={shared.view.allowComment} />
      {shared.view.allowApprove && <ApprovalForm item={item} shared={shared} />}
      {shared.view.allowComment && <NoteForm item={item} shared={shared} clock={clock} drawing={drawing} videoRef={videoRef} />}
      {notes.length > 0 && (
        <div>
          <h3 className="mb-2 text-sm font-semibold">Timeline notes</h3>
          <ul className="divide-y divide-line rounded-md border border-line" aria-label={`Timeline notes on ${item.title}`}>
            {notes.map((n) => (
              <li key={`${n.source}-${n.id}`} className="flex items-start gap-3 p-3 text-sm">
                <button type="button" onClick={() => seek(noteMs(n))} aria-label={`Go to ${formatTimestamp(n.timestampSeconds ?? 0)}`} data-testid="note-seek">
                  <NoteTime seconds={n.timestampSeconds ?? 0} ms={n.timestampMs} endMs={n.endMs} version={{ frameRate: item.frameRate, startTimecode: null }} />
                </button>
                <Comment c={n} />
                <ShapesPreview shapes={n.shapes} />
                {n.endMs != null && n.endMs > noteMs(n) && <LoopNoteButton clock={clock} fromMs={noteMs(n)} toMs={n.endMs} fps={item.frameRate} />}
              </li>
            ))}
          </ul>
        </div>
      )}
      {shared.view.allowComment && <FeedbackForm item={item} shared={shared} />}
      {feedback.length > 0 && (
        <ul className="space-y-3" aria-label={`Feedback on ${item.title}`}>
          {feedback.map((f) => (
            <li key={`${f.source}-${f.id}`} className="rounded-md border border-line p-3 text-sm">
              <Stars value={f.rating ?? 0} />
              <Comment c={f} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Comment({ c }: { c: ShareComment }) {
  return (
    <div className="min-w-0 flex-1">
      <p className="whitespace-pre-wrap break-words">
        {c.text}
        {c.cue && <NoteCueLine cue={c.cue} />}
        <DrawingText shapes={c.shapes} />
      </p>
      <p className="mt-1 text-xs text-fg-muted">
        {c.guestName} · {formatDateTime(c.createdAt)}
      </p>
    </div>
  );
}

function Media({
  item,
  videoRef,
  clock,
  markers,
  overlay,
  canMark,
}: {
  item: ShareItem;
  videoRef: React.RefObject<HTMLVideoElement | null>;
  clock: ReturnType<typeof useNoteClock>;
  markers: ReturnType<typeof noteMarkers>;
  overlay: React.ReactNode;
  /** The link takes notes: I and O, and a drag on the marker strip, mark a range (the strip shows without notes too). */
  canMark: boolean;
}) {
  if (item.type === 'image') {
    if (!item.imageUrl) return <Preparing />;
    return (
      <PictureFrame overlay={overlay}>
        <img src={item.imageUrl} alt={item.title} data-testid="share-image" className="max-h-[70vh] w-full rounded-lg bg-black object-contain" />
      </PictureFrame>
    );
  }
  if (!item.playbackUrl) return <Preparing />;
  // The review players' one player (issue 39): streams where the link shows the clean sizes
  // (issue 33), one file otherwise.
  return (
    <ReviewVideo
      item={item}
      videoRef={videoRef}
      frameRate={item.frameRate}
      {...clock.videoEvents}
      clock={clock}
      canMark={canMark}
      markers={markers}
      overlay={overlay}
      testId="share-video"
      className="aspect-video"
    />
  );
}

function Preparing() {
  return (
    <div className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-lg bg-muted text-sm text-fg-muted" role="status">
      <Film size={28} aria-hidden="true" />
      Preparing preview…
    </div>
  );
}

/** Posts a guest write; a missing name is asked for by the server's 400 and shown as a toast. */
async function send<T>(shared: Shared, method: string, path: string, body: Record<string, unknown>): Promise<T | null> {
  try {
    return await apiJson<T>(method, `/api/share/${shared.token}${path}`, { ...body, ...(shared.name ? { name: shared.name } : {}) });
  } catch (e) {
    toast({ title: 'Not sent', description: errorMessage(e), variant: 'destructive' });
    return null;
  }
}

function NoteForm({
  item,
  shared,
  clock,
  drawing,
  videoRef,
}: {
  item: ShareItem;
  shared: Shared;
  clock: ReturnType<typeof useNoteClock>;
  drawing: Drawing;
  videoRef: React.RefObject<HTMLVideoElement | null>;
}) {
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  const pin = useCuePin(videoRef);
  // An image has no time: its notes are at 0 (issue 29, drawings on the picture).
  const isVideo = item.type === 'video';
  const ms = isVideo ? clock.ms : 0;
  const timeError = ms === null ? 'Time must be a number of seconds, 0 or more' : undefined;
  const endError = isVideo ? rangeError(clock, item.durationSeconds) : undefined;
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return toast({ title: 'Please enter a note', variant: 'destructive' });
    if (ms === null || endError) return;
    // Read now, from the element when the field follows a paused playhead (useNoteClock).
    const at = isVideo ? clock.msToSave() : 0;
    if (at === null) return;
    setPending(true);
    const created = await send<ShareComment>(shared, 'POST', `/media/${item.id}/timeline-notes`, {
      text,
      ...noteTimeBody(at),
      ...(isVideo ? noteEndBody(clock) : {}),
      ...(drawing.shapes.length ? { shapes: drawing.shapes } : {}),
      ...pin.body(),
    });
    setPending(false);
    if (!created) return;
    setText('');
    clock.release();
    drawing.reset();
    pin.reset();
    shared.onChanged({ comments: [...shared.view.comments, created] });
    toast({ title: 'Note added' });
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label={`Add a timeline note on ${item.title}`}>
      {isVideo && <NoteMomentFields label="Time (seconds)" clock={clock} fps={item.frameRate} timeError={timeError} rangeError={endError} />}
      <DrawingTools drawing={drawing} video={videoRef} />
      <CuePinFields pin={pin} />
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <Textarea label="Note" rows={2} maxLength={MAX_PORTAL_TEXT} value={text} onChange={(e) => setText(e.target.value)} {...clock.draftEvents} />
        <Button type="submit" disabled={pending}>
          Add note
        </Button>
      </div>
    </form>
  );
}

function FeedbackForm({ item, shared }: { item: ShareItem; shared: Shared }) {
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!rating) return toast({ title: 'Please choose a rating', variant: 'destructive' });
    if (!text.trim()) return toast({ title: 'Please enter your feedback', variant: 'destructive' });
    setPending(true);
    const created = await send<ShareComment>(shared, 'POST', `/media/${item.id}/feedback`, { text, rating });
    setPending(false);
    if (!created) return;
    setText('');
    setRating(0);
    shared.onChanged({ comments: [...shared.view.comments, created] });
    toast({ title: 'Feedback sent' });
  }
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label={`Feedback on ${item.title}`}>
      <StarRating value={rating} onChange={setRating} />
      <Textarea label="Feedback" rows={3} maxLength={MAX_PORTAL_TEXT} value={text} onChange={(e) => setText(e.target.value)} />
      <Button type="submit" variant="outline" disabled={pending}>
        Send feedback
      </Button>
    </form>
  );
}

function ApprovalForm({ item, shared }: { item: ShareItem; shared: Shared }) {
  const [note, setNote] = useState('');
  const [pending, setPending] = useState(false);
  const { approval } = item;
  async function decide(status: 'approved' | 'changes_requested') {
    if (status === 'changes_requested' && !note.trim()) return toast({ title: 'Please say what should change', variant: 'destructive' });
    setPending(true);
    const done = await send<{ status: 'approved' | 'changes_requested'; by: string }>(shared, 'PUT', `/media/${item.id}/approval`, { status, note, version: item.version });
    setPending(false);
    if (!done) return;
    setNote('');
    shared.onChanged({
      items: shared.view.items.map((i) => (i.id === item.id ? { ...i, approval: { ...i.approval, status: done.status, by: done.by, at: new Date().toISOString(), note: note || null } } : i)),
    });
    toast({ title: status === 'approved' ? `Version ${item.version} approved` : 'Changes requested' });
  }
  if (approval.locked) {
    return <p className="text-sm text-fg-muted">The studio has locked the decision on this version.</p>;
  }
  return (
    <div className="space-y-3 rounded-md border border-line p-3" role="group" aria-label={`Decision on ${item.title}`}>
      {approval.status !== 'in_review' && (
        <p className="text-sm text-fg-muted" data-testid="share-decision">
          {approval.status === 'approved' ? 'Approved' : 'Changes requested'}
          {approval.by && <> by {approval.by}</>}
          {approval.at && <> · {formatDateTime(approval.at)}</>}
        </p>
      )}
      <Textarea label="Note for the studio (required to request changes)" rows={2} maxLength={MAX_PORTAL_TEXT} value={note} onChange={(e) => setNote(e.target.value)} />
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => decide('approved')} disabled={pending || approval.status === 'approved'}>
          {approval.status === 'approved' ? (
            <>
              <CheckCircle2 size={16} aria-hidden="true" /> Approved v{item.version}
            </>
          ) : (
            <>Approve v{item.version}</>
          )}
        </Button>
        <Button variant="outline" onClick={() => decide('changes_requested')} disabled={pending}>
          Request changes
        </Button>
      </div>
    </div>
  );
}
