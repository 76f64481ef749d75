// What the gallery's viewers picked (issue 42): each list per viewer with its count and state,
// CSV and "Copy for Lightroom" (file names without extensions, comma-separated), reopening a
// submitted list with a note; and the gallery's download log.
import { useCallback, useEffect, useState } from 'react';
import { ClipboardCopy, FileSpreadsheet, RotateCcw } from 'lucide-react';
import { apiJson, apiRequest, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { DOWNLOAD_TIER_LABELS, type GalleryDownloadRow, type SelectionSummary } from '../../../shared/schemas/proofing.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { Textarea } from '../../ui/Textarea.tsx';
import type { EditorProps } from './editor-props.ts';

export function SelectionsTab({ g, can }: EditorProps) {
  const [rows, setRows] = useState<SelectionSummary[] | null>(null);
  const [reopening, setReopening] = useState<SelectionSummary | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const load = useCallback(() => {
    apiJson<SelectionSummary[]>('GET', `/api/galleries/${g.id}/selections`)
      .then(setRows)
      .catch((e) => toast({ title: 'Could not load selections', description: errorMessage(e), variant: 'destructive' }));
  }, [g.id]);
  useEffect(load, [load]);
  const base = (s: SelectionSummary) => `/api/galleries/${g.id}/selections/${s.id}/export`;
  async function copyNames(s: SelectionSummary) {
    try {
      const text = await (await apiRequest('GET', `${base(s)}?format=lightroom`)).text();
      await navigator.clipboard.writeText(text).then(
        () => toast({ title: 'File names copied', description: 'Paste them into Lightroom’s Library filter (Text, Filename, Contains).' }),
        () => setCopied(text),
      );
    } catch (e) {
      toast({ title: 'Could not copy', description: errorMessage(e), variant: 'destructive' });
    }
  }
  if (rows === null)
    return (
      <div className="space-y-2" aria-label="Loading selections">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14" />
        ))}
      </div>
    );
  if (!rows.length) return <EmptyState title="No picks yet" description={g.lists.length ? 'Viewers’ lists appear here as soon as they pick, and you are told when one is submitted.' : 'Add a selection list first, so viewers have something to pick into.'} />;
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-raised">
      <table className="w-full min-w-[40rem] text-sm">
        <thead className="border-b border-line text-left text-fg-muted">
          <tr>
            <th className="p-3 font-medium">List</th>
            <th className="p-3 font-medium">Viewer</th>
            <th className="p-3 font-medium">Picked</th>
            <th className="p-3 font-medium">Hearts</th>
            <th className="p-3 font-medium">State</th>
            <th className="p-3 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.id} className="border-b border-line last:border-0" data-testid="selection-row">
              <td className="p-3 font-medium">{s.listName}</td>
              <td className="p-3">
                <span className="block">{s.viewerName}</span>
                <span className="text-xs text-fg-muted">{s.via}</span>
              </td>
              <td className="p-3 tabular-nums">
                {s.count}
                {s.maxCount != null ? ` / ${s.maxCount}` : ''}
              </td>
              <td className="p-3 tabular-nums">{s.hearts}</td>
              <td className="p-3">
                {s.submittedAt ? <Badge tone="success">Submitted {formatDateTime(s.submittedAt)}</Badge> : s.reopenedAt ? <Badge tone="warning">Reopened</Badge> : <Badge>Picking</Badge>}
              </td>
              <td className="p-3">
                <div className="flex flex-wrap justify-end gap-1">
                  <a className={buttonClass('outline', 'sm')} href={`${base(s)}?format=csv&download=1`} download>
                    <FileSpreadsheet size={14} aria-hidden="true" /> CSV
                  </a>
                  <Button size="sm" variant="outline" onClick={() => void copyNames(s)}>
                    <ClipboardCopy size={14} aria-hidden="true" /> Copy for Lightroom
                  </Button>
                  {can.edit && s.submittedAt && (
                    <Button size="sm" variant="ghost" onClick={() => setReopening(s)}>
                      <RotateCcw size={14} aria-hidden="true" /> Reopen
                    </Button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ReopenDialog galleryId={g.id} selection={reopening} onClose={() => setReopening(null)} onDone={load} />
      <Dialog open={copied != null} onClose={() => setCopied(null)} title="File names for Lightroom" size="md">
        <Textarea label="Copy these" readOnly rows={5} value={copied ?? ''} onFocus={(e) => e.currentTarget.select()} />
      </Dialog>
    </div>
  );
}

function ReopenDialog({ galleryId, selection, onClose, onDone }: { galleryId: number; selection: SelectionSummary | null; onClose: () => void; onDone: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  return (
    <Dialog
      open={!!selection}
      onClose={onClose}
      title={`Reopen “${selection?.listName}”`}
      description={`${selection?.viewerName} can change the list and send it again; they see your note.`}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={pending}
            onClick={async () => {
              if (!note.trim()) return setError('Write a note for the viewer.');
              setPending(true);
              try {
                await apiJson('POST', `/api/galleries/${galleryId}/selections/${selection!.id}/reopen`, { note: note.trim() });
                toast({ title: 'List reopened' });
                setNote('');
                setError('');
                onClose();
                onDone();
              } catch (e) {
                setError(errorMessage(e));
              } finally {
                setPending(false);
              }
            }}
          >
            Reopen
          </Button>
        </>
      }
    >
      <Textarea label="Note" rows={3} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} error={error || undefined} />
    </Dialog>
  );
}

export function DownloadsTab({ g }: EditorProps) {
  const [rows, setRows] = useState<GalleryDownloadRow[] | null>(null);
  useEffect(() => {
    apiJson<GalleryDownloadRow[]>('GET', `/api/galleries/${g.id}/downloads`)
      .then(setRows)
      .catch((e) => toast({ title: 'Could not load the log', description: errorMessage(e), variant: 'destructive' }));
  }, [g.id]);
  if (rows === null) return <Skeleton className="h-40" />;
  if (!rows.length) return <EmptyState title="No downloads yet" description="Every download by a client or through a link is listed here, one row per image (also inside a ZIP)." />;
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-raised">
      <table className="w-full min-w-[36rem] text-sm">
        <thead className="border-b border-line text-left text-fg-muted">
          <tr>
            <th className="p-3 font-medium">When</th>
            <th className="p-3 font-medium">Who</th>
            <th className="p-3 font-medium">File</th>
            <th className="p-3 font-medium">Size</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-b border-line last:border-0">
              <td className="whitespace-nowrap p-3">{formatDateTime(r.at)}</td>
              <td className="p-3">
                <span className="block">{r.who || 'Guest'}</span>
                <span className="text-xs text-fg-muted">{r.via}</span>
              </td>
              <td className="max-w-64 truncate p-3" title={r.fileName}>
                {r.fileName}
                {r.zip && <Badge className="ml-2">ZIP</Badge>}
              </td>
              <td className="p-3">{DOWNLOAD_TIER_LABELS[r.tier]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
