import { useEffect, useState, type FormEvent } from 'react';
import { parseTagText, type AdminMedia, type MediaUpdate } from '../../../shared/schemas/media.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { Textarea } from '../../ui/Textarea.tsx';
import { stageOptions } from '../../../shared/stages.ts';
import { updateMedia, type ClientOption } from './media-api.ts';
import { checkPosterFile } from './upload.ts';

function initial(m: AdminMedia) {
  return {
    title: m.title,
    projectStage: m.projectStage ?? 'none',
    notes: m.notes ?? '',
    clientId: m.clientId === null ? '' : String(m.clientId),
    tags: m.tags.join(', '),
    isFeatured: m.isFeatured,
    showInPortfolio: m.showInPortfolio,
  };
}

/** 'Edit Media' (001 §2): every field, stage 'none' clears it; an optional new poster. */
export function EditDialog({ item, clients, onClose, onSaved }: { item: AdminMedia | null; clients: ClientOption[]; onClose: () => void; onSaved: () => void }) {
  const [values, setValues] = useState(() => (item ? initial(item) : null));
  const [poster, setPoster] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  useEffect(() => {
    setValues(item ? initial(item) : null);
    setPoster(null);
    setErrors({});
  }, [item]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!item || !values) return;
    const errs: Record<string, string> = {};
    if (!values.title.trim()) errs.title = 'Title is required';
    if (poster) {
      const p = checkPosterFile(poster);
      if (p) errs.posterFile = p;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const patch: MediaUpdate = {
      title: values.title.trim(),
      projectStage: values.projectStage === 'none' ? null : values.projectStage,
      notes: values.notes,
      clientId: values.clientId ? Number(values.clientId) : null,
      tags: parseTagText(values.tags),
      isFeatured: values.isFeatured,
      showInPortfolio: values.showInPortfolio,
    };
    setPending(true);
    const ok = await updateMedia(item.id, patch, { title: 'Update failed' }, poster);
    setPending(false);
    if (ok) {
      onSaved();
      onClose();
    }
  }

  const set = (k: string, v: unknown) => setValues((s) => (s ? { ...s, [k]: v } : s));
  const clientOptions = [{ value: '', label: 'No client' }, ...clients.map((c) => ({ value: String(c.id), label: c.name }))];
  if (values?.clientId && !clients.some((c) => String(c.id) === values.clientId)) {
    clientOptions.push({ value: values.clientId, label: `Client #${values.clientId}` });
  }

  return (
    <Dialog
      open={!!item}
      onClose={onClose}
      title="Edit Media"
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form="media-edit-form" disabled={pending}>
            {pending ? 'Saving...' : 'Save Changes'}
          </Button>
        </>
      }
    >
      {values && item && (
        <form id="media-edit-form" onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Edit media">
          <Field label="Title" value={values.title} onChange={(e) => set('title', e.target.value)} error={errors.title} maxLength={200} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Select
              label="Project Stage"
              value={values.projectStage}
              onChange={(e) => set('projectStage', e.target.value)}
              options={[
                { value: 'none', label: 'None' },
                ...stageOptions([values.projectStage === 'none' ? null : values.projectStage]),
              ]}
            />
            <Select label="Client" value={values.clientId} onChange={(e) => set('clientId', e.target.value)} options={clientOptions} />
          </div>
          <Textarea label="Notes" rows={3} value={values.notes} onChange={(e) => set('notes', e.target.value)} />
          <Field label="Tags" hint="Separate tags with commas" value={values.tags} onChange={(e) => set('tags', e.target.value)} />
          {item.type === 'video' && (
            <div className="space-y-1.5">
              <label htmlFor="edit-poster" className="block text-sm font-medium">
                New poster image (optional)
              </label>
              <input id="edit-poster" type="file" accept="image/jpeg,image/png,image/gif,image/webp" onChange={(e) => setPoster(e.target.files?.[0] ?? null)} className="block w-full text-sm" />
              {errors.posterFile && <p className="text-sm text-danger">{errors.posterFile}</p>}
            </div>
          )}
          <Switch label="Featured" checked={values.isFeatured} onChange={(v) => set('isFeatured', v)} />
          <Switch label="Show in Portfolio" checked={values.showInPortfolio} onChange={(v) => set('showInPortfolio', v)} />
        </form>
      )}
    </Dialog>
  );
}
