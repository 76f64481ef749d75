// A gallery's settings (issue 42): title, order, the download package (tier, high-res edge and
// cap), the download PIN, the last day (UK time) with quick extends and the reminder, and its
// sets with a tier of their own. What each setting does is in docs/proofing.md.
import { useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { DOWNLOAD_TIER_LABELS, DOWNLOAD_TIERS, GALLERY_SORT_LABELS, GALLERY_SORTS, type DownloadTier, type GalleryDetail, type GallerySort } from '../../../shared/schemas/proofing.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import type { EditorProps } from './editor-props.ts';

const tierOptions = DOWNLOAD_TIERS.map((t) => ({ value: t, label: DOWNLOAD_TIER_LABELS[t] }));

/** YYYY-MM-DD `days` after `from` (a date) or after today. */
function addDays(from: string | null, days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const base = from && from > today ? from : today;
  const d = new Date(`${base}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function SettingsTab({ g, onChange, can }: EditorProps) {
  const [f, setF] = useState(() => ({
    title: g.title,
    sortOrder: g.sortOrder as GallerySort,
    downloadTier: g.downloadTier as DownloadTier,
    highResEdge: String(g.highResEdge),
    highResCap: g.highResCap == null ? '' : String(g.highResCap),
    downloadPin: g.downloadPin ?? '',
    expiresOn: g.expiresOn ?? '',
    reminderDays: g.reminderDays == null ? '' : String(g.reminderDays),
  }));
  const [error, setError] = useState<{ field: string | null; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const set = <K extends keyof typeof f>(k: K, v: (typeof f)[K]) => setF((cur) => ({ ...cur, [k]: v }));
  const num = (s: string) => (s.trim() === '' ? null : Number(s));

  async function save(e?: FormEvent, patch?: Partial<typeof f>) {
    e?.preventDefault();
    const v = { ...f, ...patch };
    setPending(true);
    try {
      const next = await apiJson<GalleryDetail>('PATCH', `/api/galleries/${g.id}`, {
        title: v.title,
        sortOrder: v.sortOrder,
        downloadTier: v.downloadTier,
        highResEdge: Number(v.highResEdge),
        highResCap: num(v.highResCap),
        downloadPin: v.downloadPin || null,
        expiresOn: v.expiresOn || null,
        reminderDays: num(v.reminderDays),
      });
      onChange(next);
      setF(v);
      setError(null);
      toast({ title: 'Settings saved' });
    } catch (err) {
      const text = errorMessage(err);
      setError({ field: (err as { field?: string }).field ?? null, text });
      toast({ title: 'Not saved', description: text, variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }
  const err = (field: string) => (error?.field === field ? error.text : undefined);
  const disabled = !can.edit;

  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <form onSubmit={save} className="space-y-6" noValidate>
        <Card>
          <CardHeader title="Gallery" />
          <CardBody className="grid gap-4 sm:grid-cols-2">
            <Field label="Title" value={f.title} maxLength={120} onChange={(e) => set('title', e.target.value)} error={err('title')} disabled={disabled} />
            <Select label="Order" value={f.sortOrder} onChange={(e) => set('sortOrder', e.target.value as GallerySort)} options={GALLERY_SORTS.map((s) => ({ value: s, label: GALLERY_SORT_LABELS[s] }))} disabled={disabled} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Downloads" description="What viewers may download. A set can have its own; viewing is always free." />
          <CardBody className="grid gap-4 sm:grid-cols-2">
            <Select label="Largest download" value={f.downloadTier} onChange={(e) => set('downloadTier', e.target.value as DownloadTier)} options={tierOptions} disabled={disabled} />
            <Field label="High-res long edge (px)" type="number" min={2560} max={8000} value={f.highResEdge} onChange={(e) => set('highResEdge', e.target.value)} error={err('highResEdge')} disabled={disabled} />
            <Field label="High-res downloads per viewer" type="number" min={1} placeholder="No limit" value={f.highResCap} onChange={(e) => set('highResCap', e.target.value)} error={err('highResCap')} hint="Counts high-res and original downloads of different images; blank for no limit." disabled={disabled} />
            <div className="space-y-1.5">
              <Field label="Download PIN" inputMode="numeric" maxLength={4} placeholder="None" value={f.downloadPin} onChange={(e) => set('downloadPin', e.target.value.replace(/\D/g, ''))} error={err('downloadPin')} hint="Four digits asked before any download." disabled={disabled} />
              {can.edit && (
                <Button type="button" size="sm" variant="ghost" onClick={() => set('downloadPin', String(Math.floor(1000 + Math.random() * 9000)))}>
                  Make a PIN
                </Button>
              )}
            </div>
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Expiry" description="The gallery closes at the end of its last day, UK time; viewers then see the studio's contact details." />
          <CardBody className="grid gap-4 sm:grid-cols-2">
            <Field label="Last day" type="date" value={f.expiresOn} onChange={(e) => set('expiresOn', e.target.value)} error={err('expiresOn')} disabled={disabled} />
            <Field label="Reminder (days before)" type="number" min={1} max={60} placeholder="No reminder" value={f.reminderDays} onChange={(e) => set('reminderDays', e.target.value)} error={err('reminderDays')} hint="One email to its clients and guests who left an address." disabled={disabled} />
            {can.edit && (
              <div className="flex flex-wrap gap-2 sm:col-span-2">
                {[7, 30].map((d) => (
                  <Button key={d} type="button" size="sm" variant="outline" onClick={() => void save(undefined, { expiresOn: addDays(f.expiresOn || null, d) })}>
                    Extend {d} days
                  </Button>
                ))}
                {f.expiresOn && (
                  <Button type="button" size="sm" variant="ghost" onClick={() => void save(undefined, { expiresOn: '' })}>
                    No expiry
                  </Button>
                )}
              </div>
            )}
          </CardBody>
        </Card>
        {can.edit && (
          <Button type="submit" disabled={pending}>
            Save settings
          </Button>
        )}
      </form>
      <SetsCard g={g} onChange={onChange} canEdit={can.edit} />
    </div>
  );
}

function SetsCard({ g, onChange, canEdit }: { g: GalleryDetail; onChange: (g: GalleryDetail) => void; canEdit: boolean }) {
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const refresh = async () => onChange(await apiJson<GalleryDetail>('GET', `/api/galleries/${g.id}`));
  async function run(fn: () => Promise<unknown>, done: string) {
    try {
      await fn();
      await refresh();
      toast({ title: done });
      return true;
    } catch (e) {
      toast({ title: 'Not changed', description: errorMessage(e), variant: 'destructive' });
      return false;
    }
  }
  return (
    <Card className="h-fit">
      <CardHeader title="Sets" description="“Ceremony”, “Portraits”: viewers browse them apart, and each may have its own download size." />
      <CardBody className="space-y-3">
        {g.sets.length === 0 && <p className="text-sm text-fg-muted">No sets: every image is in one gallery.</p>}
        <ul className="space-y-3">
          {g.sets.map((s) => (
            <li key={s.id} className="space-y-2 rounded-md border border-line p-3">
              <div className="flex items-center justify-between gap-2">
                <span className="truncate font-medium" title={s.name}>
                  {s.name}
                </span>
                {canEdit && (
                  <Button size="icon" variant="ghost" aria-label={`Delete set ${s.name}`} onClick={() => void run(() => apiJson('DELETE', `/api/galleries/${g.id}/sets/${s.id}`), 'Set deleted; its images stay')}>
                    <Trash2 size={16} aria-hidden="true" />
                  </Button>
                )}
              </div>
              <Select
                label={`Downloads of ${s.name}`}
                value={s.downloadTier ?? ''}
                disabled={!canEdit}
                onChange={(e) => void run(() => apiJson('PATCH', `/api/galleries/${g.id}/sets/${s.id}`, { downloadTier: e.target.value || null }), 'Set saved')}
                options={[{ value: '', label: 'As the gallery' }, ...tierOptions]}
              />
            </li>
          ))}
        </ul>
        {canEdit && (
          <form
            className="flex items-end gap-2"
            onSubmit={async (e) => {
              e.preventDefault();
              if (!name.trim()) return setError('Name the set.');
              if (await run(() => apiJson('POST', `/api/galleries/${g.id}/sets`, { name: name.trim() }), 'Set added')) setName('');
              setError('');
            }}
          >
            <div className="flex-1">
              <Field label="New set" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} error={error || undefined} />
            </div>
            <Button type="submit" variant="outline">
              Add
            </Button>
          </form>
        )}
      </CardBody>
    </Card>
  );
}
