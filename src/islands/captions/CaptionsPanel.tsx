// The admin dialog's captions of the version shown (issue 54): its tracks with how each file
// was read (format, encoding, repairs), publish on the site, open captions, delete; upload a
// file with its language, label and kind; carry the previous version's tracks over.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Captions, Trash2 } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import {
  CAPTION_ENCODING_LABELS,
  CAPTION_KIND_LABELS,
  CAPTION_KINDS,
  type CaptionBurnInfo,
  type CaptionKind,
  type CaptionTrackInfo,
  type CaptionUploadResult,
} from '../../shared/schemas/captions.ts';
import { Button } from '../ui/Button.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { inputClass } from '../ui/Field.tsx';
import { Switch } from '../ui/Switch.tsx';
import { captionsChanged } from './useCaptions.tsx';

interface Props {
  mediaId: number;
  versionId: number;
  versionNumber: number;
  canEdit: boolean;
}

const SOURCE_LABELS = { uploaded: 'uploaded', edited: 'edited', embedded: 'found in the video file' } as const;

export function CaptionsPanel({ mediaId, versionId, versionNumber, canEdit }: Props) {
  const [tracks, setTracks] = useState<CaptionTrackInfo[] | null>(null);
  // A list that failed to load says so with Retry: never "No captions" for tracks that may exist.
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<CaptionTrackInfo | null>(null);
  const base = `/api/media/${mediaId}`;
  const load = useCallback(async () => {
    try {
      setTracks(await apiJson<CaptionTrackInfo[]>('GET', `${base}/versions/${versionId}/captions`));
      setLoadError(null);
    } catch (e) {
      setLoadError(errorMessage(e, 'The captions could not be loaded.'));
    }
  }, [base, versionId]);
  useEffect(() => {
    setTracks(null);
    setLoadError(null);
    void load();
  }, [load]);
  // An open-captions job running: asked again until it is done.
  const waiting = !!tracks?.some((t) => t.burns[0]?.status === 'queued');
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void load(), 3000);
    return () => clearInterval(timer);
  }, [waiting, load]);
  const changed = (list: CaptionTrackInfo[]) => {
    setTracks(list);
    captionsChanged();
  };
  const act = async (title: string, fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      toast({ title, description: errorMessage(e), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const upload = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    void act('Captions not added', async () => {
      const r = await apiJson<CaptionUploadResult>('POST', `${base}/versions/${versionId}/captions`, data);
      toast({
        title: `${r.track.label}: ${r.cueCount} cue${r.cueCount === 1 ? '' : 's'} added`,
        description: [`Read as ${r.format.toUpperCase()} in ${r.encodingLabel}.`, ...r.notes.map((n) => `${n.charAt(0).toUpperCase()}${n.slice(1)}.`)].join(' '),
      });
      form.reset();
      await load();
      captionsChanged();
    });
  };
  const patch = (t: CaptionTrackInfo, body: Record<string, unknown>) =>
    act('Track not changed', async () => {
      const next = await apiJson<CaptionTrackInfo>('PATCH', `${base}/captions/${t.id}`, body);
      changed((tracks ?? []).map((x) => (x.id === t.id ? next : x)));
    });
  const remove = (t: CaptionTrackInfo) =>
    act('Track not deleted', async () => {
      changed((await apiJson<{ tracks: CaptionTrackInfo[] }>('DELETE', `${base}/captions/${t.id}`)).tracks);
      setDeleting(null);
      toast({ title: `${t.label} deleted` });
    });
  const carry = () =>
    act('Nothing carried over', async () => {
      const r = await apiJson<{ carried: number; from: number; tracks: CaptionTrackInfo[] }>('POST', `${base}/versions/${versionId}/captions/carry-over`);
      toast({ title: `${r.carried} track${r.carried === 1 ? '' : 's'} carried over from v${r.from}` });
      changed(r.tracks);
    });
  const burn = (t: CaptionTrackInfo) =>
    act('Open captions not queued', async () => {
      await apiJson<CaptionBurnInfo>('POST', `${base}/captions/${t.id}/burn`);
      toast({ title: `Making a video with ${t.label} burnt in`, description: 'It appears here, ready to download, when the job is done.' });
      await load();
    });

  return (
    <section aria-labelledby="cc-heading" className="space-y-3 rounded-lg border border-line p-3" data-testid="captions-panel">
      <h3 id="cc-heading" className="flex items-center gap-2 text-sm font-semibold">
        <Captions size={16} aria-hidden="true" /> {`v${versionNumber} captions`}
      </h3>
      {loadError && tracks === null ? (
        <div role="alert" className="flex flex-wrap items-center gap-2 text-sm">
          <span>{loadError}</span>
          <Button variant="outline" size="sm" onClick={() => void load()}>
            Retry
          </Button>
        </div>
      ) : tracks === null ? (
        <div aria-busy="true" aria-label="Loading captions" className="space-y-2">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
        </div>
      ) : tracks.length === 0 ? (
        <p className="text-sm text-fg-muted">No captions on this version yet.</p>
      ) : (
        <ul className="space-y-2">
          {tracks.map((t) => (
            <li key={t.id} className="space-y-2 rounded-md border border-line p-2 text-sm" data-testid="caption-track">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">
                  {t.label} <span className="text-xs font-normal text-fg-muted">{`${t.language} · ${CAPTION_KIND_LABELS[t.kind]}`}</span>
                </span>
                {canEdit && (
                  <Button variant="ghost" size="sm" disabled={busy} onClick={() => setDeleting(t)} aria-label={`Delete ${t.label}`}>
                    <Trash2 size={14} aria-hidden="true" />
                  </Button>
                )}
              </div>
              <p className="text-xs text-fg-muted" data-testid="caption-read-as">
                {`${t.format.toUpperCase()}, ${CAPTION_ENCODING_LABELS[t.encoding]}, ${t.cueCount} cues, revision ${t.revision} (${SOURCE_LABELS[t.source]}${t.fileName ? `: ${t.fileName}` : ''})`}
              </p>
              {t.notes.length > 0 && (
                <ul className="list-disc pl-5 text-xs text-fg-muted">
                  {t.notes.map((n) => (
                    <li key={n}>{n}</li>
                  ))}
                </ul>
              )}
              <div className="flex flex-wrap items-center gap-3 text-xs">
                {t.downloads && (
                  <>
                    <a className="underline" href={t.downloads.srt} download>
                      SRT
                    </a>
                    <a className="underline" href={t.downloads.vtt} download>
                      WebVTT
                    </a>
                    <a className="underline" href={t.downloads.original} download>
                      As uploaded
                    </a>
                  </>
                )}
                <BurnState burns={t.burns} />
                {canEdit && (
                  <Button variant="outline" size="sm" disabled={busy} onClick={() => void burn(t)}>
                    Make open-captions video
                  </Button>
                )}
              </div>
              {canEdit && <Switch label="Published on the website" checked={t.published} disabled={busy} onChange={(published) => void patch(t, { published })} />}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this caption track?"
        message={deleting ? `${deleting.label} (${deleting.language}) is deleted from v${versionNumber} with every revision; its files stop working for everyone.` : ''}
        pending={busy}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
      {canEdit && tracks?.length === 0 && versionNumber > 1 && (
        <Button variant="outline" size="sm" disabled={busy} onClick={() => void carry()}>
          Carry the previous version’s captions over
        </Button>
      )}
      {canEdit && (
        <form onSubmit={upload} className="flex flex-wrap items-end gap-2" aria-label="Add captions">
          <label className="flex flex-col gap-1 text-xs">
            File (SRT, WebVTT, SBV)
            <input type="file" name="file" required accept=".srt,.vtt,.sbv,.sub,text/vtt,application/x-subrip,text/plain" className="text-xs" />
          </label>
          <label className="flex flex-col gap-1 text-xs">
            Language
            <input name="language" required placeholder="en-GB" maxLength={35} className={inputClass(false, 'w-24')} />
          </label>
          <label className="flex flex-col gap-1 text-xs">
            Label
            <input name="label" placeholder="English" maxLength={60} className={inputClass(false, 'w-32')} />
          </label>
          <label className="flex flex-col gap-1 text-xs">
            Kind
            <select name="kind" defaultValue="subtitles" className={inputClass(false, 'w-40')}>
              {CAPTION_KINDS.map((k: CaptionKind) => (
                <option key={k} value={k}>
                  {CAPTION_KIND_LABELS[k]}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" size="sm" disabled={busy}>
            Add captions
          </Button>
        </form>
      )}
    </section>
  );
}

function BurnState({ burns }: { burns: CaptionBurnInfo[] }) {
  const latest = burns[0];
  if (!latest) return null;
  if (latest.status === 'ready' && latest.url) {
    return (
      <a className="underline" href={latest.url} download>
        {latest.current ? 'Video with open captions' : 'Video with open captions (an older revision)'}
      </a>
    );
  }
  if (latest.status === 'failed') return <span className="text-red-600">{`Open captions failed: ${latest.error ?? 'unknown error'}`}</span>;
  return <span className="text-fg-muted">Open captions being made…</span>;
}
