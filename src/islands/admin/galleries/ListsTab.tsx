// A gallery's selection lists (issue 42): "Pick 30 for retouching" with the fewest and most a
// viewer may send. New bounds apply to the next pick and the next submission.
import { useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import type { GalleryDetail, SelectionList } from '../../../shared/schemas/proofing.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, CardHeader } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Field } from '../../ui/Field.tsx';
import type { EditorProps } from './editor-props.ts';

const bounds = (l: SelectionList) => (l.maxCount != null ? (l.minCount ? `${l.minCount} to ${l.maxCount}` : `up to ${l.maxCount}`) : l.minCount ? `at least ${l.minCount}` : 'any number');

export function ListsTab({ g, onChange, can }: EditorProps) {
  const [deleting, setDeleting] = useState<SelectionList | null>(null);
  const refresh = async () => onChange(await apiJson<GalleryDetail>('GET', `/api/galleries/${g.id}`));
  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <div className="space-y-3">
        {g.lists.length === 0 ? (
          <EmptyState title="No selection lists" description="Add a list such as “Pick 30 for retouching”: viewers pick into it and send it to you." />
        ) : (
          <ul className="space-y-3" aria-label="Selection lists">
            {g.lists.map((l) => (
              <li key={l.id}>
                <ListRow g={g} list={l} canEdit={can.edit} onSaved={refresh} onDelete={() => setDeleting(l)} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {can.edit && <NewList g={g} onSaved={refresh} />}
      <ConfirmDialog
        open={!!deleting}
        title={`Delete “${deleting?.name}”?`}
        message="Every viewer's picks in it go too, submitted ones included."
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          try {
            await apiJson('DELETE', `/api/galleries/${g.id}/lists/${deleting!.id}`);
            await refresh();
            toast({ title: 'List deleted' });
          } catch (e) {
            toast({ title: 'Not deleted', description: errorMessage(e), variant: 'destructive' });
          }
          setDeleting(null);
        }}
      />
    </div>
  );
}

function ListFields({ v, set, error }: { v: { name: string; minCount: string; maxCount: string }; set: (k: 'name' | 'minCount' | 'maxCount', value: string) => void; error: { field: string | null; text: string } | null }) {
  const err = (f: string) => (error && (error.field === f || (!error.field && f === 'name')) ? error.text : undefined);
  return (
    <>
      <Field label="Name" value={v.name} maxLength={80} onChange={(e) => set('name', e.target.value)} error={err('name')} />
      <div className="grid grid-cols-2 gap-3">
        <Field label="At least" type="number" min={0} value={v.minCount} onChange={(e) => set('minCount', e.target.value)} error={err('minCount')} />
        <Field label="At most" type="number" min={1} placeholder="No limit" value={v.maxCount} onChange={(e) => set('maxCount', e.target.value)} error={err('maxCount')} />
      </div>
    </>
  );
}

const body = (v: { name: string; minCount: string; maxCount: string }) => ({ name: v.name.trim(), minCount: Number(v.minCount || 0), maxCount: v.maxCount.trim() ? Number(v.maxCount) : null });

function ListRow({ g, list, canEdit, onSaved, onDelete }: { g: GalleryDetail; list: SelectionList; canEdit: boolean; onSaved: () => Promise<void>; onDelete: () => void }) {
  const [editing, setEditing] = useState(false);
  const [v, setV] = useState({ name: list.name, minCount: String(list.minCount), maxCount: list.maxCount == null ? '' : String(list.maxCount) });
  const [error, setError] = useState<{ field: string | null; text: string } | null>(null);
  async function save(e: FormEvent) {
    e.preventDefault();
    try {
      await apiJson('PATCH', `/api/galleries/${g.id}/lists/${list.id}`, body(v));
      await onSaved();
      setEditing(false);
      setError(null);
      toast({ title: 'List saved' });
    } catch (err) {
      setError({ field: (err as { field?: string }).field ?? null, text: errorMessage(err) });
    }
  }
  return (
    <Card>
      {editing ? (
        <form onSubmit={save} className="space-y-3 p-5" noValidate>
          <ListFields v={v} set={(k, value) => setV((c) => ({ ...c, [k]: value }))} error={error} />
          <div className="flex gap-2">
            <Button type="submit" size="sm">
              Save
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3 p-5">
          <div className="min-w-0">
            <p className="truncate font-medium" title={list.name}>
              {list.name}
            </p>
            <p className="text-sm text-fg-muted">Each viewer picks {bounds(list)}.</p>
          </div>
          {canEdit && (
            <div className="flex gap-1">
              <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button size="icon" variant="ghost" aria-label={`Delete ${list.name}`} onClick={onDelete}>
                <Trash2 size={16} aria-hidden="true" />
              </Button>
            </div>
          )}
        </div>
      )}
    </Card>
  );
}

function NewList({ g, onSaved }: { g: GalleryDetail; onSaved: () => Promise<void> }) {
  const empty = { name: '', minCount: '0', maxCount: '' };
  const [v, setV] = useState(empty);
  const [error, setError] = useState<{ field: string | null; text: string } | null>(null);
  async function add(e: FormEvent) {
    e.preventDefault();
    try {
      await apiJson('POST', `/api/galleries/${g.id}/lists`, body(v));
      await onSaved();
      setV(empty);
      setError(null);
      toast({ title: 'List added' });
    } catch (err) {
      setError({ field: (err as { field?: string }).field ?? null, text: errorMessage(err) });
    }
  }
  return (
    <Card className="h-fit">
      <CardHeader title="New list" description="Viewers see “12 / 30” as they pick, and the 31st is refused." />
      <form onSubmit={add} className="space-y-3 p-5" noValidate>
        <ListFields v={v} set={(k, value) => setV((c) => ({ ...c, [k]: value }))} error={error} />
        <Button type="submit">Add list</Button>
      </form>
    </Card>
  );
}
