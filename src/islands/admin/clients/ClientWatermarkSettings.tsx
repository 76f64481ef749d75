// How a client's watermark looks (issue 17): text, position and opacity. Saving makes every
// preview of the client's media again, in the background.
import { useEffect, useState, type FormEvent } from 'react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import type { ClientWatermark } from '../../../shared/schemas/clients.ts';
import { WATERMARK_POSITION_LABELS, WATERMARK_POSITIONS, watermarkText, type WatermarkPosition } from '../../../shared/schemas/share.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';

export function ClientWatermarkSettings({ clientId, clientName }: { clientId: number; clientName: string }) {
  const [open, setOpen] = useState(false);
  const [look, setLook] = useState<ClientWatermark | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!open || look) return;
    apiJson<ClientWatermark>('GET', `/api/clients/${clientId}/watermark`).then(setLook, (e) =>
      toast({ title: 'Could not load the watermark', description: errorMessage(e), variant: 'destructive' }),
    );
  }, [open, look, clientId]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!look) return;
    setSaving(true);
    try {
      setLook(await apiJson<ClientWatermark>('PUT', `/api/clients/${clientId}/watermark`, { ...look, watermark: true }));
      toast({ title: 'Watermark saved', description: 'The previews are being made again.' });
    } catch (err) {
      toast({ title: 'Could not save the watermark', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <details className="text-sm" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-fg-muted">Watermark text and position</summary>
      {look && (
        <form onSubmit={save} className="mt-3 space-y-3" aria-label={`Watermark of ${clientName}`}>
          <Field label="Text" value={look.text} placeholder={watermarkText('', clientName)} maxLength={120} onChange={(e) => setLook({ ...look, text: e.target.value })} />
          <Select
            label="Position"
            value={look.position}
            onChange={(e) => setLook({ ...look, position: e.target.value as WatermarkPosition })}
            options={WATERMARK_POSITIONS.map((p) => ({ value: p, label: WATERMARK_POSITION_LABELS[p] }))}
          />
          <Field label={`Opacity (${look.opacity}%)`} type="range" min={10} max={100} step={5} value={look.opacity} onChange={(e) => setLook({ ...look, opacity: Number(e.target.value) })} />
          <Button type="submit" size="sm" variant="outline" disabled={saving}>
            {saving ? 'Saving…' : 'Save watermark'}
          </Button>
        </form>
      )}
    </details>
  );
}
