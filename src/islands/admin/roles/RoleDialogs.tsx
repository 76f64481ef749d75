// Create New Role / Edit Role and Create New Permission dialogs (001 §2, §5).
import { useClearFixedErrors } from '../../ui/useLiveErrors.ts';
import { useEffect, useState, type FormEvent } from 'react';
import type { ZodType } from 'zod';
import { fieldErrors } from '../../../shared/forms.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Textarea } from '../../ui/Textarea.tsx';

export interface NameDescription {
  name: string;
  description: string;
}

/** One form for a role or a permission: a name and a description. */
export function NameDescriptionDialog({
  open,
  title,
  description,
  initial,
  schema,
  namePlaceholder,
  submitLabel,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  description: string;
  initial: NameDescription;
  schema: ZodType<NameDescription>;
  namePlaceholder?: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: (data: NameDescription) => Promise<boolean>;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  useClearFixedErrors(values, (v) => fieldErrors(schema, v).errors, setErrors);

  useEffect(() => {
    if (open) {
      setValues(initial);
      setErrors({});
    }
    // Reset only when (re)opened, not on every parent render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { data, errors: errs } = fieldErrors(schema, values);
    setErrors(errs);
    if (!data) return;
    setPending(true);
    const ok = await onSubmit(data);
    setPending(false);
    if (ok) onClose();
  }

  return (
    <Dialog open={open} onClose={onClose} title={title} description={description}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label="Name" name="name" autoComplete="off" placeholder={namePlaceholder} value={values.name} onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))} error={errors.name} />
        <Textarea label="Description" name="description" rows={3} value={values.description} onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))} error={errors.description} />
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? 'Saving...' : submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
