import { useEffect, useState } from 'react';
import { Building2, Calendar, Download, Eraser, Mail, Pencil, Phone, Trash2 } from 'lucide-react';
import { formatDate } from '../../../shared/format.ts';
import type { ClientRow } from '../../../shared/schemas/clients.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Card, CardBody } from '../../ui/Card.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { ClientWatermarkSettings } from './ClientWatermarkSettings.tsx';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';

export function ClientCard({ client, canEdit, onEdit, onDelete, onErase }: { client: ClientRow; canEdit: boolean; onEdit: () => void; onDelete: () => void; onErase: () => void }) {
  const [watermark, setWatermark] = useState(client.watermarkPreviews);
  const [saving, setSaving] = useState(false);
  useEffect(() => setWatermark(client.watermarkPreviews), [client.watermarkPreviews]);
  const [gate, setGate] = useState(client.downloadsAfterApproval);
  const [savingGate, setSavingGate] = useState(false);
  useEffect(() => setGate(client.downloadsAfterApproval), [client.downloadsAfterApproval]);
  async function toggleGate(on: boolean) {
    setGate(on);
    setSavingGate(true);
    try {
      await apiJson('PUT', `/api/clients/${client.id}/downloads`, { downloadsAfterApproval: on });
      toast({
        title: on ? 'Downloads wait for approval' : 'Downloads open',
        description: on ? `${client.name} downloads an item only once its current version is approved.` : `${client.name} can download at any time again.`,
      });
    } catch (e) {
      setGate(!on);
      toast({ title: 'Could not change the downloads', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setSavingGate(false);
    }
  }
  async function toggleWatermark(on: boolean) {
    setWatermark(on);
    setSaving(true);
    try {
      await apiJson('PUT', `/api/clients/${client.id}/watermark`, { watermark: on });
      toast({ title: on ? 'Watermarked previews on' : 'Watermarked previews off', description: on ? `${client.name} now sees “Preview - ${client.name}” copies only.` : `${client.name} sees the clean files again.` });
    } catch (e) {
      setWatermark(!on);
      toast({ title: 'Could not change the previews', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }
  return (
    <Card className="flex w-full min-w-0 flex-col" data-testid="client-card">
      <CardBody className="flex flex-1 flex-col gap-3">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="truncate text-base font-semibold" title={client.name}>
              {client.name}
            </h2>
            <p className="flex items-center gap-1.5 truncate text-sm text-fg-muted">
              <Mail size={14} aria-hidden="true" className="shrink-0" />
              <span className="truncate" title={client.email}>
                {client.email}
              </span>
            </p>
          </div>
          <Badge tone="accent">Client</Badge>
        </div>
        <dl className="space-y-1.5 text-sm">
          {client.phone && (
            <div className="flex items-center gap-1.5">
              <dt className="sr-only">Phone</dt>
              <Phone size={14} aria-hidden="true" className="text-fg-muted" />
              <dd>{client.phone}</dd>
            </div>
          )}
          {client.company && (
            <div className="flex min-w-0 items-center gap-1.5">
              <dt className="sr-only">Company</dt>
              <Building2 size={14} aria-hidden="true" className="shrink-0 text-fg-muted" />
              <dd className="min-w-0 truncate" title={client.company}>
                {client.company}
              </dd>
            </div>
          )}
          {client.notes && (
            <div>
              <dt className="sr-only">Notes</dt>
              <dd className="line-clamp-2 text-fg-muted">{client.notes}</dd>
            </div>
          )}
        </dl>
        <p className="mt-auto flex items-center gap-1.5 text-xs text-fg-muted">
          <Calendar size={12} aria-hidden="true" />
          {client.createdAt ? `Added ${formatDate(client.createdAt)}` : 'Unknown'}
        </p>
        {canEdit && (
          <div className="border-t border-line pt-3">
            <Switch label="Watermarked previews only" description="Plays and downloads marked copies, never the clean files." checked={watermark} disabled={saving} onChange={toggleWatermark} />
            {watermark && !saving && <ClientWatermarkSettings clientId={client.id} clientName={client.name} />}
            <div className="mt-3">
              <Switch label="Downloads wait for approval" description="Files download only once the current version is approved; until then it plays at up to 1080p." checked={gate} disabled={savingGate} onChange={toggleGate} />
            </div>
          </div>
        )}
        {canEdit && (
          <div className="flex gap-2 border-t border-line pt-3">
            <Button variant="outline" size="sm" className="flex-1" onClick={onEdit} aria-label={`Edit ${client.name}`}>
              <Pencil size={14} aria-hidden="true" />
              Edit
            </Button>
            <Button variant="outline" size="sm" className="flex-1 text-danger" onClick={onDelete} aria-label={`Delete ${client.name}`}>
              <Trash2 size={14} aria-hidden="true" />
              Delete
            </Button>
          </div>
        )}
        {canEdit && (
          <div className="flex gap-2">
            {/* A plain link: the ZIP streams straight to the browser's downloads. */}
            <a href={`/api/clients/${client.id}/export`} download className={buttonClass('ghost', 'sm', 'flex-1')} aria-label={`Export data for ${client.name}`}>
              <Download size={14} aria-hidden="true" />
              Export data
            </a>
            <Button variant="ghost" size="sm" className="flex-1 text-danger" onClick={onErase} aria-label={`Erase ${client.name}`}>
              <Eraser size={14} aria-hidden="true" />
              Erase
            </Button>
          </div>
        )}
      </CardBody>
    </Card>
  );
}

export function ClientCardSkeleton() {
  return (
    <Card>
      <CardBody className="space-y-3">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-10 w-full" />
      </CardBody>
    </Card>
  );
}
