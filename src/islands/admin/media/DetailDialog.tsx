import { Badge } from '../../ui/Badge.tsx';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Lock, Star, Trash2, Unlock, Upload, X } from 'lucide-react';
import { parseTagText, type AdminFeedback, type AdminMedia, type AdminTimelineNote, type MediaUpdate } from '../../../shared/schemas/media.ts';
import { toast } from '../../../shared/toast.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { Textarea } from '../../ui/Textarea.tsx';
import { formatDate, formatTimestamp } from './format.ts';
import { stageOptions } from '../../../shared/stages.ts';
import { assignClient, removeClient, updateMedia, type ClientOption } from './media-api.ts';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { ReviewVideo } from '../../ui/ReviewVideo.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import type { MediaVersion } from '../../../shared/schemas/review.ts';
import { ApprovalBadge } from '../../review/ApprovalBadge.tsx';
import { NoteTime } from '../../review/NoteTime.tsx';
import { NotesHeading } from '../../review/NotesHeading.tsx';
import { ReplyThread } from '../../review/ReplyThread.tsx';
import { VersionSwitcher } from '../../review/VersionSwitcher.tsx';
import { CompareDialog } from '../../review/CompareView.tsx';
import { ExportNotesMenu } from './ExportNotesMenu.tsx';
import { LoopNoteButton, NoteMomentFields, noteEndBody, rangeError, seekToNote, useNoteClock } from '../../review/player.tsx';
import { noteMs, noteTimeBody } from '../../review/frames.ts';
import { noteMarkers } from '../../review/markers.ts';
import { DrawingLayer, DrawingText, DrawingTools, PictureFrame, ShapesPreview, noteDrawings, useDrawing, type Drawing } from '../../review/DrawingLayer.tsx';
import { useLiveReload } from '../../live/useLive.ts';
import { useReviewLive } from '../../live/useReviewLive.ts';
import { LivePanel } from '../../live/LivePanel.tsx';
import { CaptionsPanel } from '../../captions/CaptionsPanel.tsx';
import { useOpenAt, type OpenAt } from '../../review/open-at.ts';
import { CuePinFields, NoteCueLine, useCuePin } from '../../captions/CuePin.tsx';
import { captionsChanged } from '../../captions/useCaptions.tsx';
import type { NoteCue } from '../../../shared/schemas/notes.ts';
import { NoteTaskLine, TaskChecklist, useTaskAssignees } from '../../rounds/Tasks.tsx';
import { ItemRound } from '../../rounds/ItemRound.tsx';
import { MentionOffer, useMentions } from '../../rounds/Mentions.tsx';

export type DetailTab = 'feedback' | 'edit' | 'assign' | 'settings';

interface Props {
  item: AdminMedia | null;
  tab: DetailTab;
  onTab: (t: DetailTab) => void;
  feedback: AdminFeedback[] | null;
  notes: AdminTimelineNote[] | null;
  clients: ClientOption[];
  canEdit: boolean;
  canAssign: boolean;
  canUpload: boolean;
  onReviewsChanged: () => void;
  onUploadVersion: (item: AdminMedia) => void;
  onClose: () => void;
  onChanged: () => void;
  onDelete: (item: AdminMedia) => void;
  /** `?compare=` of the page's address: the feedback tab opens the compare view at once (issue 30). */
  compare?: string | null;
  /** A search hit (issue 54): the feedback tab opens on that version, paused at that time. */
  openAt?: OpenAt | null;
}


/** The media detail dialog (001 §2): Feedback, Edit, Assign and Settings tabs. */
export function DetailDialog(props: Props) {
  const { item, tab, onTab, canEdit, canAssign, onClose } = props;
  const tabs = [
    { value: 'feedback' as const, label: 'Feedback' },
    ...(canEdit ? [{ value: 'edit' as const, label: 'Edit' }] : []),
    ...(canAssign ? [{ value: 'assign' as const, label: 'Assign' }] : []),
    { value: 'settings' as const, label: 'Settings' },
  ];
  return (
    <Dialog open={!!item} onClose={onClose} title={item?.title ?? 'Media'} size="xl">
      {item && (
        <Tabs label="Media details" tabs={tabs} value={tabs.some((t) => t.value === tab) ? tab : 'feedback'} onChange={onTab}>
          {tab === 'edit' && canEdit ? (
            <EditTab key={item.id} item={item} onChanged={props.onChanged} />
          ) : tab === 'assign' && canAssign ? (
            <AssignTab item={item} clients={props.clients} onChanged={props.onChanged} />
          ) : tab === 'settings' ? (
            <SettingsTab key={item.id} item={item} onChanged={props.onChanged} onDelete={props.onDelete} />
          ) : (
            <FeedbackTab
              item={item}
              feedback={props.feedback}
              notes={props.notes}
              canEdit={canEdit}
              canUpload={props.canUpload}
              onReviewsChanged={props.onReviewsChanged}
              onChanged={props.onChanged}
              onUploadVersion={props.onUploadVersion}
              compare={props.compare ?? null}
              openAt={props.openAt ?? null}
            />
          )}
        </Tabs>
      )}
    </Dialog>
  );
}

function Stars({ rating }: { rating: number }) {
  return (
    <span className="inline-flex" role="img" aria-label={`${rating} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <Star key={i} size={14} aria-hidden="true" className={i <= rating ? 'fill-accent text-accent' : 'text-line'} />
      ))}
    </span>
  );
}

function FeedbackTab({ item, feedback, notes, canEdit, canUpload, onReviewsChanged, onChanged, onUploadVersion, compare, openAt }: FeedbackTabProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [comparing, setComparing] = useState<string | null>(compare);
  const [versions, setVersions] = useState<MediaVersion[] | null>(null);
  const [shownId, setShownId] = useState<number | null>(null);
  const [hideResolved, setHideResolved] = useState(false);
  const [deletingVersion, setDeletingVersion] = useState<MediaVersion | null>(null);
  // The current version number the dialog last loaded: when it changes (a new version was
  // uploaded, or the current one deleted), the dialog moves to the new current version.
  const seenVersion = useRef<number | null>(null);
  const loadVersions = useCallback(() => {
    apiJson<MediaVersion[]>('GET', `/api/media/${item.id}/versions`).then(
      (list) => {
        const moved = seenVersion.current !== item.version;
        seenVersion.current = item.version;
        setVersions(list);
        const current = list.find((v) => v.current)?.id ?? null;
        setShownId((cur) => (!moved && cur != null && list.some((v) => v.id === cur) ? cur : current));
      },
      (e) => toast({ title: 'Could not load versions', description: errorMessage(e), variant: 'destructive' }),
    );
  }, [item.id, item.version]);
  // Reloaded when the item changes (a new version, a deletion, a decision seen in the list).
  useEffect(loadVersions, [loadVersions, item.versionCount, item.approvalStatus]);
  // A decision, a lock or a conversion of any version of this item, live (issue 41).
  useLiveReload(['approval', 'version', 'processing'], loadVersions, (topic, data) => data.mediaId === item.id && (topic !== 'processing' || data.status === 'ready' || data.status === 'failed'));
  const shown = versions?.find((v) => v.id === shownId) ?? null;
  const onVersion = (v: { versionId: number | null }) => !shown || v.versionId === shown.id;
  const mine = useMemo(() => (feedback ?? []).filter((f) => f.mediaId === item.id && onVersion(f)), [feedback, item.id, shown?.id]);
  const timeline = useMemo(
    () =>
      (notes ?? [])
        .filter((n) => n.mediaId === item.id && onVersion(n) && !(hideResolved && n.resolvedAt))
        .sort((a, b) => noteMs(a) - noteMs(b) || a.id - b.id),
    [notes, item.id, shown?.id, hideResolved],
  );
  // Every note of the version shown, resolved ones too: the task checklist counts them all.
  const versionNotes = useMemo(
    () => (notes ?? []).filter((n) => n.mediaId === item.id && onVersion(n)).sort((a, b) => noteMs(a) - noteMs(b) || a.id - b.id),
    [notes, item.id, shown?.id],
  );
  const assignees = useTaskAssignees(canEdit);
  // Every note of the version shown, resolved ones too, on the seek bar.
  const markers = useMemo(
    () => noteMarkers(versionNotes, (n) => ({ author: `${n.clientUsername}${n.guest ? ' (guest)' : n.internal ? ' (internal)' : ''}`, text: n.noteText })),
    [versionNotes],
  );
  // Drawings of every note of the version shown (issue 29), and the one being made.
  const drawings = useMemo(() => noteDrawings(versionNotes), [versionNotes]);
  const drawing = useDrawing();
  // Live review (issue 41): this dialog presents or follows; others' pointers and drawings on the picture.
  const { session, shownDrawings, setCompareSel, followCompare } = useReviewLive({ mediaId: item.id, videoRef: video, shown, setShownId, drawing, comparing, setComparing, drawings });
  const layer = <DrawingLayer notes={shownDrawings} fps={shown?.frameRate} drawing={drawing} />;
  const clock = useNoteClock(video);
  const seek = (ms: number) => seekToNote(video.current, ms, shown?.frameRate);
  // A search hit: its version, paused on its frame.
  useOpenAt(openAt, video, versions, shown, setShownId);
  const playable = shown && !shown.current ? { ...item, ...shown, id: item.id, title: `${item.title} (v${shown.number})` } : item;
  const setLock = async (v: MediaVersion, locked: boolean) => {
    try {
      await apiJson('PUT', `/api/media/${item.id}/versions/${v.id}/lock`, { locked });
      toast({ title: locked ? 'Decision locked' : 'Decision unlocked' });
      loadVersions();
      onChanged();
    } catch (e) {
      toast({ title: 'Could not change the lock', description: errorMessage(e), variant: 'destructive' });
    }
  };
  const resolve = async (note: AdminTimelineNote, resolved: boolean) => {
    try {
      await apiJson('PUT', `/api/admin/media/timeline-notes/${note.id}/resolved`, note.source === 'link' ? { resolved, source: 'link' } : { resolved });
      onReviewsChanged();
    } catch (e) {
      toast({ title: 'Could not update the note', description: errorMessage(e), variant: 'destructive' });
    }
  };
  // A note's proposed caption wording into its track, as the track's next revision (issue 54).
  const acceptWording = async (note: AdminTimelineNote) => {
    try {
      const cue = await apiJson<NoteCue>('POST', `/api/admin/media/timeline-notes/${note.id}/accept-proposal`, note.source === 'link' ? { source: 'link' } : {});
      toast({ title: `Wording accepted into ${cue.trackLabel ?? 'the captions'}${cue.acceptedRevision != null ? ` (revision ${cue.acceptedRevision})` : ''}` });
      captionsChanged();
      onReviewsChanged();
    } catch (e) {
      toast({ title: 'Could not accept the wording', description: errorMessage(e), variant: 'destructive' });
    }
  };
  const removeVersion = async () => {
    const v = deletingVersion;
    if (!v) return;
    try {
      await apiJson('DELETE', `/api/media/${item.id}/versions/${v.id}`);
      toast({ title: `Version v${v.number} deleted` });
      setDeletingVersion(null);
      setShownId(null);
      onChanged();
      onReviewsChanged();
    } catch (e) {
      toast({ title: 'Could not delete the version', description: errorMessage(e), variant: 'destructive' });
      setDeletingVersion(null);
    }
  };
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        {versions && shown ? (
          <VersionSwitcher
            versions={versions}
            value={shown.id}
            onChange={setShownId}
            onCompare={() => {
              video.current?.pause();
              setComparing('');
            }}
          />
        ) : (
          <span />
        )}
        <div className="flex flex-wrap items-center gap-2">
          {item.type === 'video' && shown && <ExportNotesMenu mediaId={item.id} versionId={shown.id} versionNumber={shown.number} />}
          {canUpload && (
            <Button variant="outline" size="sm" onClick={() => onUploadVersion(item)}>
              <Upload size={14} aria-hidden="true" /> Upload new version
            </Button>
          )}
          {canEdit && shown && versions && versions.length > 1 && (
            <Button variant="ghost" size="sm" onClick={() => setDeletingVersion(shown)}>
              <Trash2 size={14} aria-hidden="true" /> {`Delete v${shown.number}`}
            </Button>
          )}
        </div>
      </div>
      {item.type === 'video' && <LivePanel session={session} fps={shown?.frameRate} canStart />}
      {item.type === 'video' ? (
        <ReviewVideo
          key={shown && !shown.current ? shown.id : 'current'}
          item={playable}
          videoRef={video}
          pollUrl={`/api/media/${item.id}/processing`}
          canRetry={canEdit && (!shown || shown.current)}
          frameRate={shown?.frameRate ?? null}
          {...clock.videoEvents}
          clock={clock}
          markers={markers}
          overlay={layer}
          testId="detail-video"
          className="h-[clamp(200px,45vh,400px)]"
        />
      ) : (
        <PictureFrame overlay={layer}>
          <img src={shown?.url ?? item.webpUrl ?? item.url} alt={item.title} data-testid="detail-image" className="max-h-[400px] w-full rounded-lg bg-muted object-contain" />
        </PictureFrame>
      )}
      {shown && (
        <section aria-label="Client approval" className="flex flex-wrap items-center gap-3 rounded-lg border border-line p-3" data-testid="approval-panel">
          <span className="text-sm font-medium">{`v${shown.number} approval`}</span>
          <ApprovalBadge status={shown.approval.status} locked={shown.approval.locked} />
          {shown.approval.by && shown.approval.at && <span className="text-xs text-fg-muted">{`by ${shown.approval.by} · ${formatDate(shown.approval.at)}`}</span>}
          {shown.approval.note && <p className="w-full whitespace-pre-line text-sm">{shown.approval.note}</p>}
          {canEdit && shown.approval.status !== 'in_review' && (
            <Button variant="outline" size="sm" onClick={() => setLock(shown, !shown.approval.locked)}>
              {shown.approval.locked ? <Unlock size={14} aria-hidden="true" /> : <Lock size={14} aria-hidden="true" />}
              {shown.approval.locked ? 'Unlock decision' : 'Lock decision'}
            </Button>
          )}
        </section>
      )}
      <ItemRound
        mediaId={item.id}
        versionCount={item.versionCount}
        canEdit={canEdit}
        onChanged={() => {
          loadVersions();
          onChanged();
        }}
      />
      {item.type === 'video' && shown && <CaptionsPanel mediaId={item.id} versionId={shown.id} versionNumber={shown.number} canEdit={canEdit} />}
      <section aria-labelledby="fb-heading" className="space-y-2">
        <h3 id="fb-heading" className="text-sm font-semibold">
          Client Feedback
        </h3>
        {feedback === null ? (
          <p className="text-sm text-fg-muted">Loading feedback…</p>
        ) : mine.length === 0 ? (
          <p className="text-sm text-fg-muted">No feedback yet</p>
        ) : (
          <ul className="space-y-2">
            {mine.map((f) => (
              <li key={`${f.source}-${f.id}`} className="rounded-lg border border-line p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="flex flex-wrap items-center gap-2 text-sm font-medium">
                    {f.clientUsername}
                    <SourceBadges guest={f.guest} linkName={f.linkName} />
                  </span>
                  <Stars rating={f.rating} />
                </div>
                <p className="mt-1 whitespace-pre-line text-sm">{f.feedbackText}</p>
                <p className="mt-1 text-xs text-fg-muted">{formatDate(f.createdAt)}</p>
                <ReplyThread
                  replies={f.replies}
                  postUrl={`/api/admin/media/feedback/${f.id}/replies`}
                  source={f.source === 'link' ? 'link' : undefined}
                  label={`Reply to ${f.clientUsername}'s feedback`}
                  onReplied={onReviewsChanged}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      <StaffNoteForm item={item} version={shown} clock={clock} drawing={drawing} video={video} onAdded={onReviewsChanged} />
      <TaskChecklist notes={versionNotes} versionLabel={shown ? `v${shown.number}` : 'this item'} canEdit={canEdit} onChanged={onReviewsChanged} />
      <section aria-labelledby="tl-heading" className="space-y-2">
        <NotesHeading id="tl-heading" hideResolved={hideResolved} onHideResolved={setHideResolved} />
        {notes === null ? (
          <p className="text-sm text-fg-muted">Loading notes…</p>
        ) : timeline.length === 0 ? (
          <p className="text-sm text-fg-muted">No timeline notes yet</p>
        ) : (
          <ol className="space-y-2" data-testid="timeline-notes">
            {timeline.map((n) => (
              <li key={`${n.source}-${n.id}`} className="rounded-lg border border-line p-3" data-resolved={n.resolvedAt ? 'true' : undefined}>
                <div className="flex items-start gap-3">
                  <button
                    type="button"
                    onClick={() => seek(noteMs(n))}
                    disabled={item.type !== 'video'}
                    data-testid="note-seek"
                    className="flex min-w-0 flex-1 items-start gap-3 rounded text-left hover:bg-muted disabled:cursor-default disabled:hover:bg-transparent"
                  >
                    <NoteTime seconds={n.timestampSeconds} ms={n.timestampMs} endMs={n.endMs} version={shown} />
                    <span className="min-w-0 flex-1">
                      <span className={`block text-sm ${n.resolvedAt ? 'text-fg-muted line-through' : ''}`}>{n.noteText}</span>
                      {n.cue && <NoteCueLine cue={n.cue} />}
                      <DrawingText shapes={n.shapes} />
                      <span className="flex flex-wrap items-center gap-x-2 text-xs text-fg-muted">
                        {`${n.clientUsername} · ${formatDate(n.createdAt)}${n.resolvedAt ? ' · Resolved' : ''}`}
                        <SourceBadges guest={n.guest} linkName={n.linkName} internal={n.internal} />
                      </span>
                    </span>
                    <ShapesPreview shapes={n.shapes} />
                  </button>
                  {item.type === 'video' && n.endMs != null && n.endMs > noteMs(n) && <LoopNoteButton clock={clock} fromMs={noteMs(n)} toMs={n.endMs} fps={shown?.frameRate} />}
                  {canEdit && n.cue?.proposal != null && !n.cue.acceptedAt && n.cue.trackId != null && (
                    <Button variant="outline" size="sm" onClick={() => acceptWording(n)}>
                      Accept wording
                    </Button>
                  )}
                  {canEdit && (
                    <Button variant="ghost" size="sm" onClick={() => resolve(n, !n.resolvedAt)}>
                      {n.resolvedAt ? 'Reopen' : 'Resolve'}
                    </Button>
                  )}
                </div>
                <NoteTaskLine note={n} assignees={assignees} canEdit={canEdit} onChanged={onReviewsChanged} />
                <ReplyThread
                  replies={n.replies}
                  postUrl={`/api/admin/media/timeline-notes/${n.id}/replies`}
                  source={n.source === 'link' ? 'link' : undefined}
                  mentionUrl={n.source === 'link' ? undefined : `/api/media/${item.id}/mentionable`}
                  label={`Reply to the note at ${formatTimestamp(n.timestampSeconds)}`}
                  onReplied={onReviewsChanged}
                />
              </li>
            ))}
          </ol>
        )}
      </section>
      <CompareDialog
        title={item.title}
        type={item.type}
        versions={versions}
        request={comparing}
        onClose={() => setComparing(null)}
        onSelection={setCompareSel}
        selection={followCompare}
      />
      <ConfirmDialog
        open={!!deletingVersion}
        title="Delete version"
        message={deletingVersion ? `Delete v${deletingVersion.number}? Its files, feedback and timeline notes are deleted with it.` : ''}
        onConfirm={removeVersion}
        onCancel={() => setDeletingVersion(null)}
      />
    </div>
  );
}

/** The note box's label and placeholder while Internal is on. */
const INTERNAL_NOTE = 'Internal note — the client will not see this';

/** A staff note at the player's moment (issue 29), shown to the item's clients unless internal. */
function StaffNoteForm({
  item,
  version,
  clock,
  drawing,
  video,
  onAdded,
}: {
  item: AdminMedia;
  version: MediaVersion | null;
  clock: ReturnType<typeof useNoteClock>;
  drawing: Drawing;
  video: RefObject<HTMLVideoElement | null>;
  onAdded: () => void;
}) {
  const [text, setText] = useState('');
  const mentions = useMentions(`/api/media/${item.id}/mentionable`, text, setText);
  const [internal, setInternal] = useState(false);
  const [pending, setPending] = useState(false);
  const pin = useCuePin(video);
  const duration = version?.durationSeconds ?? item.durationSeconds;
  // An image has no time: its notes are at 0 (issue 29, drawings on the picture).
  const isVideo = item.type === 'video';
  const ms = isVideo ? clock.ms : 0;
  const timeError =
    ms === null ? 'Time must be a number of seconds, 0 or more' : duration != null && Math.floor(ms / 1000) > duration ? `Time must not be beyond the end of the video (${formatTimestamp(duration)})` : undefined;
  const endError = isVideo ? rangeError(clock, duration) : undefined;
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return toast({ title: 'Please enter a note', variant: 'destructive' });
    if (timeError || endError || ms === null) return;
    // Read now, from the element when the field follows a paused playhead (useNoteClock).
    const at = isVideo ? clock.msToSave() : 0;
    if (at === null) return;
    setPending(true);
    try {
      await apiJson('POST', `/api/media/${item.id}/timeline-notes`, {
        text,
        ...noteTimeBody(at),
        ...(isVideo ? noteEndBody(clock) : {}),
        internal,
        ...(drawing.shapes.length ? { shapes: drawing.shapes } : {}),
        ...(version ? { versionId: version.id } : {}),
        ...pin.body(),
        ...mentions.body(),
      });
      setText('');
      mentions.reset();
      clock.release();
      drawing.reset();
      pin.reset();
      // Off again after each internal note: left on, the next note (meant for the client)
      // would go out internal too, and the client would never see it (issue 39).
      setInternal(false);
      toast({ title: internal ? 'Internal note added' : 'Note added' });
      onAdded();
    } catch (err) {
      toast({ title: 'Could not add the note', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3 rounded-lg border border-line p-3" aria-label="Add a timeline note" data-testid="staff-note-form">
      {isVideo && <NoteMomentFields label="Time (seconds)" clock={clock} fps={version?.frameRate} startTimecode={version?.startTimecode ?? null} timeError={timeError} rangeError={endError} />}
      <DrawingTools drawing={drawing} video={video} />
      <Textarea
        label={internal ? INTERNAL_NOTE : 'Note'}
        placeholder={internal ? INTERNAL_NOTE : undefined}
        className={internal ? 'ring-2 ring-amber-600' : ''}
        rows={2}
        maxLength={5000}
        value={text}
        onChange={(e) => setText(e.target.value)}
        {...clock.draftEvents}
      />
      <MentionOffer mentions={mentions} label="People to mention" />
      <CuePinFields pin={pin} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Switch label="Internal" description="Staff only: never shown to clients or link visitors" checked={internal} onChange={setInternal} />
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? 'Adding...' : 'Add note'}
        </Button>
      </div>
    </form>
  );
}

interface FeedbackTabProps {
  item: AdminMedia;
  feedback: AdminFeedback[] | null;
  notes: AdminTimelineNote[] | null;
  canEdit: boolean;
  canUpload: boolean;
  onReviewsChanged: () => void;
  onChanged: () => void;
  onUploadVersion: (item: AdminMedia) => void;
  compare: string | null;
  openAt: OpenAt | null;
}

function EditTab({ item, onChanged }: { item: AdminMedia; onChanged: () => void }) {
  const start = { title: item.title, projectStage: item.projectStage ?? '', notes: item.notes ?? '', tags: item.tags.join(', ') };
  const [v, setV] = useState(start);
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  const stages = [{ value: '', label: 'Not specified' }, ...stageOptions([start.projectStage])];

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!v.title.trim()) return setError('Title is required');
    setError('');
    // Only the fields that changed are sent (001 §5).
    const patch: MediaUpdate = {};
    if (v.title.trim() !== item.title) patch.title = v.title.trim();
    if (v.projectStage !== start.projectStage) patch.projectStage = v.projectStage || null;
    if (v.notes !== start.notes) patch.notes = v.notes;
    const tags = parseTagText(v.tags);
    if (tags.join('\n') !== item.tags.join('\n')) patch.tags = tags;
    if (Object.keys(patch).length === 0) {
      toast({ title: 'No changes to save', description: 'No modifications were detected' });
      return;
    }
    setPending(true);
    const ok = await updateMedia(item.id, patch, { title: 'Error', description: 'Failed to update media details' });
    setPending(false);
    if (ok) onChanged();
  }

  const set = (k: keyof typeof start, val: string) => setV((s) => ({ ...s, [k]: val }));
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Edit media details">
      <Field label="Title" value={v.title} onChange={(e) => set('title', e.target.value)} error={error} maxLength={200} />
      <Select label="Project Stage" value={v.projectStage} onChange={(e) => set('projectStage', e.target.value)} options={stages} />
      <Textarea label="Notes" rows={4} value={v.notes} onChange={(e) => set('notes', e.target.value)} />
      <Field label="Tags" hint="Separate tags with commas" value={v.tags} onChange={(e) => set('tags', e.target.value)} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Saving...' : 'Save Changes'}
      </Button>
    </form>
  );
}

function AssignTab({ item, clients, onChanged }: { item: AdminMedia; clients: ClientOption[]; onChanged: () => void }) {
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState<number | null>(null);
  const assignedIds = new Set(item.assignedClients.map((c) => c.id));
  const q = query.trim().toLowerCase();
  const unassigned = clients.filter(
    (c) => !assignedIds.has(c.id) && (!q || `${c.name}\n${c.email}\n${c.company ?? ''}`.toLowerCase().includes(q)),
  );
  const act = async (id: number, fn: () => Promise<boolean>) => {
    setBusy(id);
    if (await fn()) onChanged();
    setBusy(null);
  };
  return (
    <div className="space-y-5">
      <section aria-labelledby="assigned-heading" className="space-y-2">
        <h3 id="assigned-heading" className="text-sm font-semibold">
          {`Assigned clients (${item.assignedClients.length})`}
        </h3>
        {item.assignedClients.length === 0 ? (
          <p className="text-sm text-fg-muted">No clients assigned yet</p>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line" data-testid="assigned-clients">
            {item.assignedClients.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="min-w-0">
                  <span className="block truncate text-sm font-medium">{c.name}</span>
                  <span className="block truncate text-xs text-fg-muted">{c.email}</span>
                </span>
                <Button variant="ghost" size="sm" aria-label={`Remove ${c.name}`} disabled={busy === c.id} onClick={() => act(c.id, () => removeClient(item.id, c))}>
                  <X size={16} aria-hidden="true" /> Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="unassigned-heading" className="space-y-2">
        <h3 id="unassigned-heading" className="text-sm font-semibold">
          Add a client
        </h3>
        <SearchInput label="Search clients" placeholder="Search clients..." value={query} onValueChange={setQuery} />
        <ul className="max-h-48 divide-y divide-line overflow-y-auto rounded-lg border border-line" data-testid="unassigned-clients">
          {unassigned.length === 0 ? (
            <li className="px-3 py-4 text-center text-sm text-fg-muted">{clients.length ? 'No matching clients' : 'No clients available'}</li>
          ) : (
            unassigned.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="min-w-0">
                  <span className="block truncate text-sm font-medium">{c.name}</span>
                  <span className="block truncate text-xs text-fg-muted">{c.company ? `${c.email} · ${c.company}` : c.email}</span>
                </span>
                <Button size="sm" variant="outline" aria-label={`Add ${c.name}`} disabled={busy === c.id} onClick={() => act(c.id, () => assignClient(item.id, c))}>
                  Add
                </Button>
              </li>
            ))
          )}
        </ul>
      </section>
    </div>
  );
}

function SettingsTab({ item, onChanged, onDelete }: { item: AdminMedia; onChanged: () => void; onDelete: (item: AdminMedia) => void }) {
  const [featured, setFeatured] = useState(item.isFeatured);
  const [portfolio, setPortfolio] = useState(item.showInPortfolio);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    setFeatured(item.isFeatured);
    setPortfolio(item.showInPortfolio);
  }, [item.isFeatured, item.showInPortfolio]);

  async function save() {
    const patch: MediaUpdate = {};
    if (featured !== item.isFeatured) patch.isFeatured = featured;
    if (portfolio !== item.showInPortfolio) patch.showInPortfolio = portfolio;
    if (Object.keys(patch).length === 0) {
      toast({ title: 'No changes to save', description: 'No settings modifications were detected' });
      return;
    }
    setPending(true);
    const ok = await updateMedia(item.id, patch, { title: 'Error', description: 'Failed to update media settings' });
    setPending(false);
    if (ok) onChanged();
  }

  return (
    <div className="space-y-6">
      <div className="space-y-4 rounded-lg border border-line p-4">
        <Switch label="Featured Media" description="Shown on the home page" checked={featured} onChange={setFeatured} />
        <Switch label="Show in Portfolio" description="Listed on the public portfolio" checked={portfolio} onChange={setPortfolio} />
        <Button onClick={save} disabled={pending}>
          {pending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
      <div className="space-y-3 rounded-lg border border-red-700/50 p-4">
        <h3 className="text-sm font-semibold text-danger">Danger Zone</h3>
        <p className="text-sm text-fg-muted">Deleting removes the file, its feedback, notes and client assignments.</p>
        <Button variant="destructive" onClick={() => onDelete(item)}>
          <Trash2 size={16} aria-hidden="true" /> Delete Media
        </Button>
      </div>
    </div>
  );
}

/**
 * Where a comment came from, in one thread (issue 29): a "Guest" badge for a share-link
 * visitor (naming the link), "Internal" for a staff note clients never see.
 */
function SourceBadges({ guest, linkName, internal }: { guest?: boolean; linkName?: string | null; internal?: boolean }) {
  return (
    <>
      {guest && (
        <Badge tone="outline" className="whitespace-nowrap">
          Guest{linkName ? ` · link “${linkName}”` : ''}
        </Badge>
      )}
      {internal && (
        <Badge tone="warning" className="whitespace-nowrap">
          Internal
        </Badge>
      )}
    </>
  );
}
