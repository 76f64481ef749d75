import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { Download } from 'lucide-react';
import type { ClientMedia } from '../../shared/schemas/portal.ts';
import { Badge } from '../ui/Badge.tsx';
import { buttonClass } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Tabs } from '../ui/Tabs.tsx';
import { ReviewVideo } from '../ui/ReviewVideo.tsx';
import { FeedbackTab } from './FeedbackTab.tsx';
import { TimelineTab } from './TimelineTab.tsx';
import { formatDate, formatSize, stageLabel } from './format.ts';
import { BlockedDownload } from '../review/BlockedDownload.tsx';
import { apiJson } from '../../shared/api.ts';
import type { MediaVersion } from '../../shared/schemas/review.ts';
import { VersionSwitcher } from '../review/VersionSwitcher.tsx';
import { CompareDialog } from '../review/CompareView.tsx';
import { ApprovalPanel } from './ApprovalPanel.tsx';
import { ClientRound } from '../rounds/ClientRound.tsx';
import { $notes, loadMedia, loadNotes } from './store.ts';
import { seekToNote, useNoteClock } from '../review/player.tsx';
import { noteMarkers } from '../review/markers.ts';
import { DrawingLayer, PictureFrame, noteDrawings, useDrawing } from '../review/DrawingLayer.tsx';
import { useLiveReload } from '../live/useLive.ts';
import { useReviewLive } from '../live/useReviewLive.ts';
import { LivePanel } from '../live/LivePanel.tsx';
import { useOpenAt, type OpenAt } from '../review/open-at.ts';

type Tab = 'details' | 'feedback' | 'timeline';
const TABS: { value: Tab; label: string }[] = [
  { value: 'details', label: 'Details' },
  { value: 'feedback', label: 'Feedback' },
  { value: 'timeline', label: 'Timeline' },
];

/**
 * Opened for one item; the parent remounts it (key) per item so state starts fresh. `compare`
 * (the page's `?compare=2,3`) opens the compare view at once (issue 30).
 */
export function MediaDetailDialog({
  item,
  onClose,
  compare = null,
  joinLive = false,
  openAt = null,
}: {
  item: ClientMedia | null;
  onClose: () => void;
  compare?: string | null;
  joinLive?: boolean;
  /** A search hit (issue 54): the version shown and the moment the player pauses on. */
  openAt?: OpenAt | null;
}) {
  const [tab, setTab] = useState<Tab>('details');
  const video = useRef<HTMLVideoElement>(null);
  const clock = useNoteClock(video);
  const [versions, setVersions] = useState<MediaVersion[] | null>(null);
  const [shownId, setShownId] = useState<number | null>(null);
  const [comparing, setComparing] = useState<string | null>(compare);

  // Every version of the item (issue 16); the dialog opens on the current one. The notes are
  // fetched again too, so replies the studio wrote since the page loaded are there.
  useEffect(() => {
    if (!item) return;
    void loadNotes();
    apiJson<MediaVersion[]>('GET', `/api/client/media/${item.id}/versions`).then(
      (list) => {
        setVersions(list);
        setShownId(list.find((v) => v.current)?.id ?? null);
      },
      () => setVersions([]),
    );
  }, [item?.id]);
  // A new version, a decision or a lock on this item, live (issue 41): the list again, on the
  // version shown (or the new current one when the shown one went).
  useLiveReload(
    ['version', 'approval', 'preview'],
    () => {
      if (!item) return;
      apiJson<MediaVersion[]>('GET', `/api/client/media/${item.id}/versions`).then((list) => {
        setVersions(list);
        setShownId((cur) => (cur !== null && list.some((v) => v.id === cur) ? cur : (list.find((v) => v.current)?.id ?? null)));
      }, () => undefined);
    },
    (_topic, data) => !!item && data.mediaId === item.id,
  );
  const shown = versions?.find((v) => v.id === shownId) ?? null;
  useOpenAt(openAt, video, versions, shown, setShownId);
  const playable = item && shown && !shown.current ? { ...item, ...shown, id: item.id, title: `${item.title} (v${shown.number})` } : item;
  const allNotes = useStore($notes);
  const shownNotes = useMemo(() => allNotes.filter((n) => item && n.mediaId === item.id && (!shown || n.versionId === shown.id)), [allNotes, item?.id, shown?.id]);
  const markers = useMemo(() => noteMarkers(shownNotes, (n) => ({ author: n.clientUsername, text: n.noteText })), [shownNotes]);
  const drawings = useMemo(() => noteDrawings(shownNotes), [shownNotes]);
  const drawing = useDrawing();
  // Live review (issue 41): the studio's presenter drives this player while the client follows.
  const { session, shownDrawings, setCompareSel, followCompare } = useReviewLive({ mediaId: item?.id ?? 0, videoRef: video, shown, setShownId, drawing, comparing, setComparing, drawings });
  // The pointer draws only while the tools (on the Timeline tab) are in view.
  const layer = <DrawingLayer notes={shownDrawings} fps={shown?.frameRate} drawing={tab === 'timeline' ? drawing : null} />;
  const decided = (next: MediaVersion) => {
    setVersions((list) => list?.map((v) => (v.id === next.id ? next : v)) ?? null);
    void loadMedia();
    // A decision can open (or keep closed) the downloads of every version (issue 30).
    if (item) apiJson<MediaVersion[]>('GET', `/api/client/media/${item.id}/versions`).then(setVersions, () => undefined);
  };

  const seek = (ms: number) => seekToNote(video.current, ms, shown?.frameRate);

  return (
    <Dialog open={!!item} onClose={onClose} title={item?.title ?? 'Media'} size="2xl">
      {item && (
        // Side by side on wide screens, so the video stays in view while writing notes.
        <div className="space-y-5 lg:grid lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start lg:gap-6 lg:space-y-0">
          <div className="space-y-3 lg:sticky lg:top-0">
            {versions && shown && (
              <VersionSwitcher
                versions={versions}
                value={shown.id}
                onChange={setShownId}
                onCompare={() => {
                  video.current?.pause();
                  setComparing('');
                }}
              />
            )}
            {item.type === 'video' && <LivePanel session={session} fps={shown?.frameRate} autoJoin={joinLive} />}
            {item.type === 'video' ? (
              // 250 px tall under 768 px, 500 px from there up (001 §2).
              <ReviewVideo
                key={shown && !shown.current ? shown.id : 'current'}
                item={playable ?? item}
                frameRate={shown?.frameRate ?? null}
                videoRef={video}
                pollUrl={`/api/client/media/${item.id}/processing`}
                {...clock.videoEvents}
                clock={clock}
                markers={markers}
                overlay={layer}
                testId="portal-video"
                // It does not start by itself (issue 39, a departure from 001 §4): the note's
                // time field follows the playhead, and a client who opens a cut to read the
                // notes would find it moved before they had looked.
                className="h-[250px] md:h-[500px]"
              />
            ) : (
              <PictureFrame overlay={layer}>
                <img
                  src={shown && !shown.current ? (shown.webpUrl ?? shown.url) : (item.webpUrl ?? item.url)}
                  alt={item.title}
                  data-testid="portal-image"
                  className="h-[250px] w-full rounded-lg bg-black object-contain md:h-[500px]"
                />
              </PictureFrame>
            )}
          </div>
          <div className="space-y-4">
            {shown && (
              <ClientRound mediaId={item.id} versionCount={versions?.length ?? 0} onDecided={() => {
                  void loadMedia();
                  apiJson<MediaVersion[]>('GET', `/api/client/media/${item.id}/versions`).then(setVersions, () => undefined);
                }}>
                <ApprovalPanel mediaId={item.id} version={shown} onDecided={decided} />
              </ClientRound>
            )}
            <Tabs tabs={TABS} value={tab} onChange={setTab} label="Media details">
              {tab === 'details' && <Details item={item} />}
              {tab === 'feedback' && <FeedbackTab item={item} version={shown} />}
              {tab === 'timeline' && <TimelineTab item={item} version={shown} clock={clock} onSeek={seek} drawing={drawing} video={video} />}
            </Tabs>
            {item.type === 'video' && shown && (
              // Issue 30: the client's own notes on this version, as CSV (the server names the file).
              <a href={`/api/client/media/${item.id}/versions/${shown.id}/markers?format=csv`} download className={buttonClass('outline', 'sm')} data-testid="download-my-notes">
                <Download size={14} aria-hidden="true" />
                Download my notes (CSV)
              </a>
            )}
          </div>
        </div>
      )}
      {item && (
        <CompareDialog
          title={item.title}
          type={item.type}
          versions={versions}
          request={comparing}
          onClose={() => setComparing(null)}
          onSelection={setCompareSel}
          selection={followCompare}
        />
      )}
    </Dialog>
  );
}

function Details({ item }: { item: ClientMedia }) {
  const rows: [string, string][] = [
    ['Type', item.type === 'video' ? 'Video' : 'Image'],
    ['Size', formatSize(item.fileSize)],
    ['Created', formatDate(item.createdAt)],
    ['Stage', stageLabel(item.projectStage)],
  ];
  return (
    <div className="space-y-5">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-fg-muted">{k}</dt>
            <dd className="font-medium" data-testid={`detail-${k.toLowerCase()}`}>
              {v}
            </dd>
          </div>
        ))}
      </dl>
      {item.downloadUrl ? (
        <a href={item.downloadUrl} download={item.filename || ''} className={buttonClass('primary', 'md')}>
          <Download size={16} aria-hidden="true" />
          Download
        </a>
      ) : item.downloadBlockedReason ? (
        <BlockedDownload reason={item.downloadBlockedReason} />
      ) : null}
      <div className="space-y-2">
        <h3 className="text-sm font-semibold">Tags</h3>
        {item.tags.length ? (
          <div className="flex flex-wrap gap-1.5">
            {item.tags.map((t) => (
              <Badge key={t} tone="outline">
                {t}
              </Badge>
            ))}
          </div>
        ) : (
          <p className="text-sm text-fg-muted">No tags</p>
        )}
      </div>
      <div className="space-y-2">
        <h3 className="text-sm font-semibold">Notes</h3>
        <p className="whitespace-pre-wrap break-words text-sm text-fg-muted">{item.notes?.trim() || 'No notes'}</p>
      </div>
    </div>
  );
}
