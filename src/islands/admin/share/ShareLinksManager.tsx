// /admin/share-links (issues 17 and 32): every share link with its state and use, a "New link"
// dialog (items, password, expiry, what the link allows, watermark), and per link: copy its
// address again (an explicit, logged call), edit it in the same dialog, quick expiry changes,
// a new address for links made before addresses were kept, the access log, revoke.
import { useCallback, useEffect, useState } from 'react';
import { CalendarClock, Copy, Link2, Pencil, RefreshCw, ScrollText } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { formatDateTime as when } from '../../../shared/format.ts';
import { SHARE_DOWNLOAD_LABELS, type ShareLinkAddress, type ShareLinkSummary, type ShareLogEntry, type ShareLogPage } from '../../../shared/schemas/share.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Menu } from '../../ui/Menu.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { NewShareLinkDialog } from './NewShareLinkDialog.tsx';
import { useLiveReload } from '../../live/useLive.ts';

const STATE_TONE = { active: 'success', expired: 'warning', revoked: 'danger' } as const;
const STATE_LABEL = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

function allows(l: ShareLinkSummary): string {
  const parts = ['View'];
  if (l.allowComment) parts.push('comment');
  if (l.allowApprove) parts.push('approve');
  // A gallery link's downloads follow the gallery's package (issue 42).
  parts.push(l.gallery ? 'pick, downloads as the gallery allows' : SHARE_DOWNLOAD_LABELS[l.download].toLowerCase());
  return parts.join(', ');
}

const DAY_MS = 24 * 3600 * 1000;

/** Quick expiry changes: `days` on from the later of now and the current expiry (extend), or an absolute end. */
function quickExpiry(l: ShareLinkSummary, change: { addDays: number } | { inHours: number } | 'none'): string | null {
  if (change === 'none') return null;
  if ('inHours' in change) return new Date(Date.now() + change.inHours * 3600 * 1000).toISOString();
  const from = Math.max(Date.now(), l.expiresAt ? new Date(l.expiresAt).getTime() : Date.now());
  return new Date(from + change.addDays * DAY_MS).toISOString();
}

export default function ShareLinksManager({ preselect }: { preselect: number[] }) {
  const [links, setLinks] = useState<ShareLinkSummary[] | null>(null);
  const [creating, setCreating] = useState(preselect.length > 0);
  const [editing, setEditing] = useState<ShareLinkSummary | null>(null);
  const [revoking, setRevoking] = useState<ShareLinkSummary | null>(null);
  const [readdressing, setReaddressing] = useState<ShareLinkSummary | null>(null);
  const [shown, setShown] = useState<{ link: ShareLinkSummary; url: string; fresh: boolean } | null>(null);
  const [pending, setPending] = useState(false);
  const [logOf, setLogOf] = useState<ShareLinkSummary | null>(null);

  const replace = (next: ShareLinkSummary) => setLinks((list) => list?.map((l) => (l.id === next.id ? next : l)) ?? list);

  /** Asks the server for the address (written to the link's log), then the clipboard; the address in a field when the browser refuses. */
  async function copyAddress(l: ShareLinkSummary) {
    let url: string;
    try {
      url = (await apiJson<ShareLinkAddress>('POST', `/api/share-links/${l.id}/address`)).url;
    } catch (e) {
      toast({ title: 'Could not get the address', description: errorMessage(e), variant: 'destructive' });
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Address copied', description: `The address of “${l.name}” is on your clipboard.` });
    } catch {
      setShown({ link: l, url, fresh: false });
    }
  }

  async function newAddress() {
    const l = readdressing;
    if (!l) return;
    setPending(true);
    try {
      const { url } = await apiJson<ShareLinkAddress>('POST', `/api/share-links/${l.id}/new-address`);
      replace({ ...l, addressKept: true });
      setReaddressing(null);
      setShown({ link: l, url, fresh: true });
      toast({ title: 'New address made', description: 'The old address no longer opens this link.' });
    } catch (e) {
      toast({ title: 'Could not make a new address', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }

  async function changeExpiry(l: ShareLinkSummary, expiresAt: string | null, what: string) {
    try {
      const next = await apiJson<ShareLinkSummary>('PATCH', `/api/share-links/${l.id}`, { expiresAt });
      replace(next);
      toast({ title: 'Expiry changed', description: next.expiresAt ? `“${l.name}” ${what}: now until ${when(next.expiresAt)}.` : `“${l.name}” no longer expires.` });
    } catch (e) {
      toast({ title: 'Could not change the expiry', description: errorMessage(e), variant: 'destructive' });
    }
  }

  const load = useCallback(async () => {
    try {
      setLinks(await apiJson<ShareLinkSummary[]>('GET', '/api/share-links'));
    } catch (e) {
      setLinks([]);
      toast({ title: 'Failed to load share links', description: errorMessage(e), variant: 'destructive' });
    }
  }, []);
  useEffect(() => void load(), [load]);
  // Opens, downloads and edits on another screen show here as they happen (issue 41).
  useLiveReload(['link', 'link-activity'], () => void load());

  async function revoke() {
    if (!revoking) return;
    setPending(true);
    try {
      const next = await apiJson<ShareLinkSummary>('DELETE', `/api/share-links/${revoking.id}`);
      replace(next);
      toast({ title: 'Link revoked', description: `“${revoking.name}” no longer opens.` });
      setRevoking(null);
    } catch (e) {
      toast({ title: 'Could not revoke the link', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Share links</h1>
          <p className="text-sm text-fg-muted">Send cuts to people without an account. Every open, comment, decision and download is logged.</p>
        </div>
        <Button onClick={() => setCreating(true)}>
          <Link2 size={16} aria-hidden="true" /> New link
        </Button>
      </div>
      {links === null ? (
        <div className="space-y-3" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      ) : links.length === 0 ? (
        <EmptyState title="No share links yet" description="Make one to send a cut to an agency, a couple's family or a label." action={<Button onClick={() => setCreating(true)}>New link</Button>} />
      ) : (
        <ul className="space-y-3" aria-label="Share links">
          {links.map((l) => (
            <li key={l.id} className="rounded-lg border border-line bg-raised p-4" data-testid="share-link-row">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="font-medium">{l.name}</h2>
                    <Badge tone={STATE_TONE[l.state]}>{STATE_LABEL[l.state]}</Badge>
                    {l.hasPassword && <Badge>Password</Badge>}
                    {l.watermark && <Badge>Watermarked</Badge>}
                  </div>
                  {l.gallery ? (
                    <p className="truncate text-sm text-fg-muted">
                      Gallery{' '}
                      <a className="underline" href={`/admin/galleries/${l.gallery.id}?tab=sharing`}>
                        {l.gallery.title}
                      </a>
                    </p>
                  ) : (
                    <p className="truncate text-sm text-fg-muted">{l.items.map((i) => i.title).join(', ') || 'No items left'}</p>
                  )}
                  <p className="text-xs text-fg-muted">
                    {allows(l)} · {l.opens} {l.opens === 1 ? 'open' : 'opens'}
                    {l.lastOpenedAt && <> · last {when(l.lastOpenedAt)}</>}
                    {l.expiresAt && <> · {l.state === 'expired' ? 'expired' : 'expires'} {when(l.expiresAt)}</>} · made {when(l.createdAt)}
                    {l.createdBy && <> by {l.createdBy}</>}
                  </p>
                  {!l.addressKept && l.state !== 'revoked' && (
                    <p className="text-sm text-fg" data-testid="share-link-legacy">
                      Made before addresses were kept: its address cannot be shown again. A new address revokes the old one.
                    </p>
                  )}
                </div>
                <div className="flex flex-wrap gap-2">
                  {l.state !== 'revoked' &&
                    (l.addressKept ? (
                      <Button variant="outline" size="sm" onClick={() => copyAddress(l)} aria-label={`Copy address of ${l.name}`}>
                        <Copy size={16} aria-hidden="true" /> Copy address
                      </Button>
                    ) : (
                      <Button variant="outline" size="sm" onClick={() => setReaddressing(l)} aria-label={`New address for ${l.name}`}>
                        <RefreshCw size={16} aria-hidden="true" /> New address
                      </Button>
                    ))}
                  {l.state !== 'revoked' && (
                    <>
                      {/* A gallery link's images and downloads are the gallery's (issue 42); its name, password, expiry, comments and watermark are edited here. */}
                      <Button variant="outline" size="sm" onClick={() => setEditing(l)} aria-label={`Edit ${l.name}`}>
                        <Pencil size={16} aria-hidden="true" /> Edit
                      </Button>
                      <Menu
                        label={`Expiry of ${l.name}`}
                        labelTrigger={false}
                        triggerClassName={buttonClass('outline', 'sm')}
                        trigger={
                          <>
                            <CalendarClock size={16} aria-hidden="true" /> Expiry
                          </>
                        }
                        items={[
                          { label: '+7 days', onSelect: () => void changeExpiry(l, quickExpiry(l, { addDays: 7 }), 'extended') },
                          { label: '+30 days', onSelect: () => void changeExpiry(l, quickExpiry(l, { addDays: 30 }), 'extended') },
                          { label: 'End in 24 hours', onSelect: () => void changeExpiry(l, quickExpiry(l, { inHours: 24 }), 'shortened') },
                          { label: 'No expiry', onSelect: () => void changeExpiry(l, null, 'changed'), disabled: !l.expiresAt },
                          { label: 'Pick a date…', onSelect: () => setEditing(l) },
                        ]}
                      />
                    </>
                  )}
                  <Button variant="outline" size="sm" onClick={() => setLogOf(l)} aria-label={`Access log of ${l.name}`}>
                    <ScrollText size={16} aria-hidden="true" /> Access log
                  </Button>
                  {l.state === 'active' && (
                    <Button variant="destructive" size="sm" onClick={() => setRevoking(l)} aria-label={`Revoke ${l.name}`}>
                      Revoke
                    </Button>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <NewShareLinkDialog
        open={creating}
        preselect={preselect}
        onClose={() => setCreating(false)}
        onCreated={({ url: _url, ...l }) => setLinks((list) => [l, ...(list ?? [])])}
      />
      <NewShareLinkDialog open={!!editing} preselect={[]} editing={editing} onClose={() => setEditing(null)} onCreated={() => {}} onSaved={replace} />
      <ConfirmDialog
        open={!!readdressing}
        title="Make a new address?"
        message={`“${readdressing?.name ?? ''}” gets a new address with the same settings and items. The old address stops working at once, for everyone who has it.`}
        confirmLabel="Make new address"
        pending={pending}
        onConfirm={newAddress}
        onCancel={() => setReaddressing(null)}
      />
      <Dialog
        open={!!shown}
        onClose={() => setShown(null)}
        title={shown?.fresh ? 'New address ready' : `Address of ${shown?.link.name ?? ''}`}
        description={shown?.fresh ? 'Send this address to the people the link is for.' : 'The browser did not allow copying: select the address and copy it.'}
        footer={<Button onClick={() => setShown(null)}>Done</Button>}
      >
        <div className="flex gap-2">
          <input
            readOnly
            value={shown?.url ?? ''}
            aria-label="Share link address"
            className="block w-full rounded-md border border-line bg-muted px-3 py-2 font-mono text-xs"
            data-testid="share-link-address"
            onFocus={(e) => e.currentTarget.select()}
          />
          {shown && (
            <Button
              variant="outline"
              aria-label="Copy link"
              onClick={() =>
                navigator.clipboard.writeText(shown.url).then(
                  () => toast({ title: 'Address copied' }),
                  () => toast({ title: 'Copy it by hand', description: 'The browser did not allow copying.', variant: 'destructive' }),
                )
              }
            >
              <Copy size={16} aria-hidden="true" />
            </Button>
          )}
        </div>
      </Dialog>
      <ConfirmDialog
        open={!!revoking}
        title="Revoke this link?"
        message={`“${revoking?.name ?? ''}” stops working at once for everyone who has it. Its log is kept.`}
        confirmLabel="Revoke"
        pending={pending}
        onConfirm={revoke}
        onCancel={() => setRevoking(null)}
      />
      <AccessLogDialog link={logOf} onClose={() => setLogOf(null)} />
    </div>
  );
}

function AccessLogDialog({ link, onClose }: { link: ShareLinkSummary | null; onClose: () => void }) {
  const [rows, setRows] = useState<ShareLogEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const load = (cursor: string | null) =>
    apiJson<ShareLogPage>('GET', `/api/share-links/${link!.id}/log${cursor ? `?cursor=${cursor}` : ''}`).then(
      (page) => {
        setRows((before) => (cursor ? [...(before ?? []), ...page.entries] : page.entries));
        setNext(page.nextCursor);
      },
      (e) => {
        setRows((before) => before ?? []);
        toast({ title: 'Could not load the access log', description: errorMessage(e), variant: 'destructive' });
      },
    );
  useEffect(() => {
    if (!link) return;
    setRows(null);
    setNext(null);
    void load(null);
  }, [link]);
  return (
    <Dialog open={!!link} onClose={onClose} title={`Access log · ${link?.name ?? ''}`} size="lg">
      {rows === null ? (
        <Skeleton className="h-32 w-full" />
      ) : rows.length === 0 ? (
        <p className="text-sm text-fg-muted">Nobody has opened this link yet.</p>
      ) : (
        <div className="max-h-[60vh] overflow-auto">
          <table className="w-full text-left text-sm" data-testid="share-log">
            <thead className="text-xs text-fg-muted">
              <tr>
                <th className="py-2 pr-3 font-medium">When</th>
                <th className="py-2 pr-3 font-medium">What</th>
                <th className="py-2 pr-3 font-medium">Who</th>
                <th className="py-2 pr-3 font-medium">Item</th>
                <th className="py-2 font-medium">Address</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rows.map((r) => (
                <tr key={r.id}>
                  <td className="whitespace-nowrap py-2 pr-3">{when(r.at)}</td>
                  <td className="py-2 pr-3">
                    {r.action}
                    {r.detail && <span className="block max-w-xs truncate text-xs text-fg-muted">{r.detail}</span>}
                  </td>
                  <td className="py-2 pr-3">{r.guestName || '—'}</td>
                  <td className="py-2 pr-3">{r.mediaTitle ?? '—'}</td>
                  <td className="py-2 font-mono text-xs">{r.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {next && (
            <div className="mt-3 flex justify-center">
              <Button
                variant="outline"
                size="sm"
                disabled={loadingMore}
                onClick={() => {
                  setLoadingMore(true);
                  void load(next).finally(() => setLoadingMore(false));
                }}
              >
                {loadingMore ? 'Loading…' : 'Show older entries'}
              </Button>
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
