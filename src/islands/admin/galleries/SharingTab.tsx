// Who sees the gallery (issue 42): clients, in their portal (added ones are told by email), and
// share links with the link rules (password, expiry, access log). A link's address is given when
// it is made and again only by "Copy address", which is logged, as for every link.
import { useEffect, useState, type FormEvent } from 'react';
import { Copy, Link2, ScrollText } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { formatDateTime } from '../../../shared/format.ts';
import type { GalleryLinkSummary } from '../../../shared/schemas/proofing.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Field, PasswordField } from '../../ui/Field.tsx';
import { Switch } from '../../ui/Switch.tsx';
import type { EditorProps } from './editor-props.ts';

const STATE_TONE = { active: 'success', expired: 'warning', revoked: 'danger' } as const;

export function SharingTab({ g, onChange, reload, can }: EditorProps) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ClientsCard g={g} canAssign={can.assign} onSaved={(clients) => onChange({ ...g, clients })} />
      <LinksCard galleryId={g.id} links={g.links} canShare={can.share} reload={reload} />
    </div>
  );
}

function ClientsCard({ g, canAssign, onSaved }: { g: EditorProps['g']; canAssign: boolean; onSaved: (c: { id: number; name: string }[]) => void }) {
  const [all, setAll] = useState<{ id: number; name: string; company?: string }[] | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set(g.clients.map((c) => c.id)));
  const [note, setNote] = useState('');
  useEffect(() => {
    if (!canAssign) return;
    apiJson<{ id: number; name: string; company?: string }[]>('GET', '/api/clients')
      .then(setAll)
      .catch((e) => setNote(errorMessage(e)));
  }, [canAssign]);
  async function save() {
    try {
      onSaved(await apiJson<{ id: number; name: string }[]>('PUT', `/api/galleries/${g.id}/clients`, { clientIds: [...chosen] }));
      toast({ title: 'Clients saved', description: 'Clients added now hear of the gallery by email.' });
    } catch (e) {
      toast({ title: 'Not saved', description: errorMessage(e), variant: 'destructive' });
    }
  }
  return (
    <Card>
      <CardHeader title="Clients" description="Clients see the gallery in their portal, each login with its own hearts and picks." />
      <CardBody className="space-y-3">
        {!canAssign ? (
          <ul className="text-sm">{g.clients.length ? g.clients.map((c) => <li key={c.id}>{c.name}</li>) : <li className="text-fg-muted">Not shared with any client.</li>}</ul>
        ) : all === null ? (
          <p className="text-sm text-fg-muted">{note || 'Loading clients…'}</p>
        ) : all.length === 0 ? (
          <p className="text-sm text-fg-muted">
            No clients yet. <a className="underline" href="/admin/clients">Add one</a>.
          </p>
        ) : (
          <>
            <ul className="max-h-72 space-y-1 overflow-y-auto" aria-label="Clients">
              {all.map((c) => (
                <li key={c.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={chosen.has(c.id)}
                      onChange={(e) =>
                        setChosen((cur) => {
                          const next = new Set(cur);
                          if (e.target.checked) next.add(c.id);
                          else next.delete(c.id);
                          return next;
                        })
                      }
                    />
                    <span className="truncate" title={c.name}>
                      {c.name}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            <Button onClick={() => void save()}>Save clients</Button>
          </>
        )}
      </CardBody>
    </Card>
  );
}

function LinksCard({ galleryId, links, canShare, reload }: { galleryId: number; links: GalleryLinkSummary[]; canShare: boolean; reload: () => Promise<void> }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [comments, setComments] = useState(true);
  const [watermark, setWatermark] = useState(false);
  const [watermarkText, setWatermarkText] = useState('');
  const [error, setError] = useState<{ field: string | null; text: string } | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<GalleryLinkSummary | null>(null);
  async function make(e: FormEvent) {
    e.preventDefault();
    try {
      const r = await apiJson<{ url: string }>('POST', `/api/galleries/${galleryId}/links`, {
        name: name.trim(),
        password,
        expiresAt: expiresOn ? new Date(`${expiresOn}T23:59:59`).toISOString() : null,
        allowComment: comments,
        watermark,
        watermarkText: watermarkText.trim(),
      });
      setMade(r.url);
      setName('');
      setPassword('');
      setError(null);
      await reload();
    } catch (err) {
      setError({ field: (err as { field?: string }).field ?? null, text: errorMessage(err) });
    }
  }
  async function copy(id: number) {
    try {
      const { url } = await apiJson<{ url: string }>('POST', `/api/share-links/${id}/address`);
      await navigator.clipboard.writeText(url).then(
        () => toast({ title: 'Address copied' }),
        () => setMade(url),
      );
    } catch (e) {
      toast({ title: 'Could not get the address', description: errorMessage(e), variant: 'destructive' });
    }
  }
  const err = (f: string) => (error && (error.field === f || (!error.field && f === 'name')) ? error.text : undefined);
  return (
    <Card>
      <CardHeader title="Share links" description="For people without a portal login: the gallery, its lists and downloads, with a password and expiry if you like." />
      <CardBody className="space-y-4">
        {links.length === 0 ? (
          <p className="text-sm text-fg-muted">No links to this gallery yet.</p>
        ) : (
          <ul className="divide-y divide-line rounded-md border border-line" aria-label="Links">
            {links.map((l) => (
              <li key={l.id} className="flex flex-wrap items-center gap-2 p-3 text-sm">
                <Link2 size={16} aria-hidden="true" className="text-fg-muted" />
                <span className="min-w-0 flex-1 truncate font-medium" title={l.name}>
                  {l.name}
                </span>
                <Badge tone={STATE_TONE[l.state]}>{l.state === 'active' ? 'Active' : l.state === 'expired' ? 'Expired' : 'Revoked'}</Badge>
                {l.hasPassword && <Badge tone="outline">Password</Badge>}
                {l.watermark && <Badge tone="outline">Watermarked</Badge>}
                <span className="text-xs text-fg-muted">
                  {l.opens} open{l.opens === 1 ? '' : 's'}
                  {l.expiresAt ? ` · until ${formatDateTime(l.expiresAt)}` : ''}
                </span>
                {canShare && l.state === 'active' && (
                  <>
                    <Button size="sm" variant="outline" onClick={() => void copy(l.id)}>
                      <Copy size={14} aria-hidden="true" /> Copy address
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setRevoking(l)}>
                      Revoke
                    </Button>
                  </>
                )}
                <a className={buttonClass('ghost', 'sm')} href="/admin/share-links">
                  <ScrollText size={14} aria-hidden="true" /> Log
                </a>
              </li>
            ))}
          </ul>
        )}
        {made && (
          <div className="space-y-1 rounded-md border border-accent/50 bg-accent/10 p-3 text-sm">
            <p className="font-medium">The link’s address</p>
            <input readOnly value={made} className="w-full rounded border border-line bg-raised px-2 py-1 font-mono text-xs" aria-label="Link address" onFocus={(e) => e.currentTarget.select()} data-testid="made-link" />
          </div>
        )}
        {canShare && (
          <form onSubmit={make} className="space-y-3 border-t border-line pt-4" noValidate aria-label="New link">
            <Field label="Link name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} error={err('name')} placeholder="For the couple" />
            <div className="grid gap-3 sm:grid-cols-2">
              <PasswordField label="Password (optional)" value={password} onChange={(e) => setPassword(e.target.value)} error={err('password')} autoComplete="new-password" />
              <Field label="Link expires (optional)" type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} error={err('expiresAt')} />
            </div>
            <Switch label="Notes and drawings on stills" checked={comments} onChange={setComments} />
            <Switch
              label="Watermarked proofs"
              description="The link shows and gives only its own marked copies (2,048 px at most), made in the background."
              checked={watermark}
              onChange={setWatermark}
            />
            {watermark && <Field label="Watermark text (optional)" value={watermarkText} maxLength={120} placeholder="Preview - link name" onChange={(e) => setWatermarkText(e.target.value)} error={err('watermarkText')} />}
            <Button type="submit">Make link</Button>
          </form>
        )}
      </CardBody>
      <ConfirmDialog
        open={!!revoking}
        title={`Revoke “${revoking?.name}”?`}
        message="The link stops working at once for everyone; its log is kept."
        confirmLabel="Revoke"
        onCancel={() => setRevoking(null)}
        onConfirm={async () => {
          try {
            await apiJson('DELETE', `/api/share-links/${revoking!.id}`);
            await reload();
            toast({ title: 'Link revoked' });
          } catch (e) {
            toast({ title: 'Not revoked', description: errorMessage(e), variant: 'destructive' });
          }
          setRevoking(null);
        }}
      />
    </Card>
  );
}
