// The "New link" dialog (issue 17): which items, a password, an expiry, what the link allows
// and the watermark. On success the address is shown with a Copy button (it can be copied again
// from the list later, issue 32). With `editing` it is the "Edit link" dialog (issue 32): the
// same fields prefilled, saved with PATCH /api/share-links/{id}.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Copy } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import type { AdminMedia } from '../../../shared/schemas/media.ts';
import {
  SHARE_DOWNLOAD_LABELS,
  SHARE_DOWNLOADS,
  WATERMARK_POSITION_LABELS,
  DEFAULT_WATERMARK_POSITION,
  WATERMARK_POSITIONS,
  watermarkText,
  type ShareDownload,
  type ShareLinkCreate,
  type ShareLinkCreated,
  type ShareLinkSummary,
  type ShareLinkUpdate,
  type WatermarkPosition,
} from '../../../shared/schemas/share.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field, PasswordField } from '../../ui/Field.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';

interface Props {
  open: boolean;
  preselect: number[];
  onClose: () => void;
  onCreated: (link: ShareLinkCreated) => void;
  /** The link being edited (the dialog then saves changes instead of making a link). */
  editing?: ShareLinkSummary | null;
  onSaved?: (link: ShareLinkSummary) => void;
}

/** An ISO time as a datetime-local field shows it (local time, to the minute). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function NewShareLinkDialog({ open, preselect, onClose, onCreated, editing = null, onSaved }: Props) {
  const [library, setLibrary] = useState<AdminMedia[] | null>(null);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<number[]>(preselect);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [expires, setExpires] = useState('');
  const [allowComment, setAllowComment] = useState(true);
  const [allowApprove, setAllowApprove] = useState(false);
  const [download, setDownload] = useState<ShareDownload>('none');
  const [afterApproval, setAfterApproval] = useState(false);
  const [watermark, setWatermark] = useState(false);
  const [wmText, setWmText] = useState('');
  const [position, setPosition] = useState<WatermarkPosition>(DEFAULT_WATERMARK_POSITION);
  const [opacity, setOpacity] = useState(60);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ShareLinkCreated | null>(null);
  const [removePassword, setRemovePassword] = useState(false);
  // A gallery link (issue 42) shows its gallery: its images and downloads are the gallery's, so
  // only the link's own rules are edited here (name, password, expiry, comments, watermark).
  const gallery = editing?.gallery ?? null;

  // Editing: the link's own settings, filled in each time the dialog opens on it.
  useEffect(() => {
    if (!open || !editing) return;
    setPicked(editing.items.map((i) => i.id));
    setName(editing.name);
    setPassword('');
    setRemovePassword(false);
    setExpires(toLocalInput(editing.expiresAt));
    setAllowComment(editing.allowComment);
    setAllowApprove(editing.allowApprove);
    setDownload(editing.download);
    setAfterApproval(editing.downloadsAfterApproval);
    setWatermark(editing.watermark);
    setWmText(editing.watermarkText);
    setPosition(editing.watermarkPosition);
    setOpacity(editing.watermarkOpacity);
    setError(null);
  }, [open, editing]);

  useEffect(() => {
    if (!open || library || gallery) return;
    apiJson<AdminMedia[]>('GET', '/api/media').then(setLibrary, (e) => {
      setLibrary([]);
      toast({ title: 'Could not load the media library', description: errorMessage(e), variant: 'destructive' });
    });
  }, [open, library, gallery]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (library ?? []).filter((m) => !q || m.title.toLowerCase().includes(q));
  }, [library, query]);

  function reset() {
    setPicked([]);
    setName('');
    setPassword('');
    setExpires('');
    setWatermark(false);
    setWmText('');
    setDownload('none');
    setAfterApproval(false);
    setAllowApprove(false);
    setAllowComment(true);
    setCreated(null);
    setError(null);
    setRemovePassword(false);
    setPosition(DEFAULT_WATERMARK_POSITION);
    setOpacity(60);
  }

  function close() {
    reset();
    onClose();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Give the link a name (it is shown to the visitor)');
    if (!gallery && !picked.length) return setError('Choose at least one item');
    if (editing) return save(editing);
    const body: ShareLinkCreate = {
      name,
      mediaIds: picked,
      password,
      expiresAt: expires ? new Date(expires).toISOString() : null,
      allowComment,
      allowApprove,
      download,
      downloadsAfterApproval: afterApproval,
      watermark,
      watermarkText: wmText,
      watermarkPosition: position,
      watermarkOpacity: opacity,
    };
    setPending(true);
    try {
      const link = await apiJson<ShareLinkCreated>('POST', '/api/share-links', body);
      setCreated(link);
      onCreated(link);
      toast({ title: 'Share link created' });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  }

  async function save(link: ShareLinkSummary) {
    const body: ShareLinkUpdate = {
      name,
      allowComment,
      ...(gallery ? {} : { mediaIds: picked, allowApprove, download, downloadsAfterApproval: afterApproval }),
      watermark,
      watermarkText: wmText,
      watermarkPosition: position,
      watermarkOpacity: opacity,
    };
    // Only a changed expiry is sent: an expired link keeps its past date until staff pick a new one.
    if (expires !== toLocalInput(link.expiresAt)) body.expiresAt = expires ? new Date(expires).toISOString() : null;
    if (removePassword) body.password = '';
    else if (password) body.password = password;
    setPending(true);
    try {
      const saved = await apiJson<ShareLinkSummary>('PATCH', `/api/share-links/${link.id}`, body);
      onSaved?.(saved);
      toast({ title: 'Link saved', description: 'Visitors see the change on their next step.' });
      close();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  }

  async function copy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.url);
      toast({ title: 'Link copied' });
    } catch {
      toast({ title: 'Copy it by hand', description: 'The browser did not allow copying.', variant: 'destructive' });
    }
  }

  if (created) {
    return (
      <Dialog open={open} onClose={close} title="Link ready" description="Send this address to the people it is for. You can copy it again from the list at any time." footer={<Button onClick={close}>Done</Button>}>
        <div className="flex gap-2">
          <input readOnly value={created.url} aria-label="Share link address" className="block w-full rounded-md border border-line bg-muted px-3 py-2 font-mono text-xs" data-testid="share-link-url" onFocus={(e) => e.currentTarget.select()} />
          <Button variant="outline" onClick={copy} aria-label="Copy link">
            <Copy size={16} aria-hidden="true" />
          </Button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={editing ? `Edit link · ${editing.name}` : 'New share link'}
      size="lg"
      footer={
        <>
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="new-share-link" disabled={pending}>
            {editing ? (pending ? 'Saving…' : 'Save changes') : pending ? 'Creating…' : 'Create link'}
          </Button>
        </>
      }
    >
      <form id="new-share-link" onSubmit={onSubmit} noValidate className="space-y-5">
        {error && (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger">
            {error}
          </p>
        )}
        <Field label="Link name" value={name} onChange={(e) => setName(e.target.value)} hint="Shown to the visitor, and in the watermark." maxLength={120} />
        {gallery ? (
          <p className="text-sm text-fg-muted">
            Shows the gallery{' '}
            <a className="underline" href={`/admin/galleries/${gallery.id}?tab=sharing`}>
              {gallery.title}
            </a>
            : its images, picking and downloads are set in the gallery.
          </p>
        ) : (
          <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Items ({picked.length} chosen)</legend>
          <SearchInput value={query} onValueChange={setQuery} label="Search the library" placeholder="Search by title" />
          <div className="max-h-48 space-y-1 overflow-auto rounded-md border border-line p-2">
            {library === null ? (
              <p className="text-sm text-fg-muted">Loading…</p>
            ) : shown.length === 0 ? (
              <p className="text-sm text-fg-muted">No items match.</p>
            ) : (
              shown.map((m) => (
                <label key={m.id} className="flex items-center gap-2 rounded px-1 py-0.5 text-sm hover:bg-muted">
                  <input
                    type="checkbox"
                    checked={picked.includes(m.id)}
                    onChange={(e) => setPicked((p) => (e.target.checked ? [...p, m.id] : p.filter((id) => id !== m.id)))}
                  />
                  <span className="truncate">{m.title}</span>
                  <span className="ml-auto text-xs text-fg-muted">{m.type}</span>
                </label>
              ))
            )}
          </div>
          </fieldset>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {editing ? (
            <div className="space-y-2">
              <PasswordField
                label={editing.hasPassword ? 'New password (empty: keep it)' : 'Password (optional)'}
                value={password}
                disabled={removePassword}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="new-password"
              />
              {editing.hasPassword && (
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={removePassword} onChange={(e) => setRemovePassword(e.target.checked)} /> Remove the password
                </label>
              )}
              <p className="text-xs text-fg-muted">A new or removed password signs out visitors already in; they open the link again.</p>
            </div>
          ) : (
            <PasswordField label="Password (optional)" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
          )}
          <Field label="Expires (optional)" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
        </div>
        <div className="space-y-3">
          <Switch label="Allow comments" description="Feedback and timeline notes under a name the visitor types." checked={allowComment} onChange={setAllowComment} />
          {!gallery && (
            <Switch label="Allow approving" description="The visitor can approve the current version or request changes." checked={allowApprove} onChange={setAllowApprove} />
          )}
          {!gallery && (
          <Select
            label="Downloads"
            value={download}
            onChange={(e) => setDownload(e.target.value as ShareDownload)}
            options={SHARE_DOWNLOADS.filter((d) => !(watermark && d === 'original')).map((d) => ({ value: d, label: SHARE_DOWNLOAD_LABELS[d] }))}
          />
          )}
          {!gallery && download !== 'none' && (
            <Switch
              label="Downloads wait for approval"
              description="Files download only once the current version of the item is approved; until then it plays at up to 1080p."
              checked={afterApproval}
              onChange={setAfterApproval}
            />
          )}
        </div>
        <div className="space-y-3 rounded-md border border-line p-3">
          <Switch
            label="Watermarked preview"
            description="The visitor sees and downloads only a copy with text burned in."
            checked={watermark}
            onChange={(on) => {
              setWatermark(on);
              if (on && download === 'original') setDownload('preview');
            }}
          />
          {watermark && (
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label="Text" value={wmText} placeholder={watermarkText('', name || 'link name')} onChange={(e) => setWmText(e.target.value)} maxLength={120} />
              <Select
                label="Position"
                value={position}
                onChange={(e) => setPosition(e.target.value as WatermarkPosition)}
                options={WATERMARK_POSITIONS.map((p) => ({ value: p, label: WATERMARK_POSITION_LABELS[p] }))}
              />
              <Field label={`Opacity (${opacity}%)`} type="range" min={10} max={100} step={5} value={opacity} onChange={(e) => setOpacity(Number(e.target.value))} />
            </div>
          )}
        </div>
      </form>
    </Dialog>
  );
}
