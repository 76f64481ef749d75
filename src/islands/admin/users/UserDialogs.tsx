// Create New User and Edit User dialogs (001 §2, §5).
import { useEffect, useState, type FormEvent } from 'react';
import { fieldErrors } from '../../../shared/forms.ts';
import { createUserFormSchema, editUserFormSchema, type UserRow } from '../../../shared/schemas/users.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field, PasswordField } from '../../ui/Field.tsx';
import { PASSWORD_HINT } from '../../../shared/passwords.ts';

export interface RoleOption {
  id: number;
  name: string;
  description?: string | null;
  /** The Client role: not offered to staff users. */
  isProtected?: boolean;
}

type Setter = (key: string, value: string) => void;

function NameFields({ values, errors, set }: { values: Record<string, string>; errors: Record<string, string>; set: Setter }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First Name" name="forename" autoComplete="off" value={values.forename} onChange={(e) => set('forename', e.target.value)} error={errors.forename} />
        <Field label="Last Name" name="surname" autoComplete="off" value={values.surname} onChange={(e) => set('surname', e.target.value)} error={errors.surname} />
      </div>
      <Field label="Username" name="username" autoComplete="off" value={values.username} onChange={(e) => set('username', e.target.value)} error={errors.username} />
      <Field label="Email" name="email" type="email" autoComplete="off" value={values.email} onChange={(e) => set('email', e.target.value)} error={errors.email} />
      <Field label="Display Name" name="displayName" autoComplete="off" value={values.displayName} onChange={(e) => set('displayName', e.target.value)} error={errors.displayName} />
    </>
  );
}

const fullName = (first: string, last: string) => `${first.trim()} ${last.trim()}`.trim();

const EMPTY_CREATE = { forename: '', surname: '', username: '', email: '', displayName: '', password: '', confirmPassword: '' };

export function CreateUserDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (data: Omit<typeof EMPTY_CREATE, 'confirmPassword'>) => Promise<boolean>;
}) {
  const [values, setValues] = useState(EMPTY_CREATE);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  // Display name follows 'first last' until the admin types one of their own.
  const [displayTouched, setDisplayTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setValues(EMPTY_CREATE);
      setErrors({});
      setDisplayTouched(false);
    }
  }, [open]);

  const set: Setter = (key, value) =>
    setValues((v) => {
      const next = { ...v, [key]: value };
      if (key === 'displayName') setDisplayTouched(value !== '');
      else if ((key === 'forename' || key === 'surname') && !displayTouched && next.forename.trim() && next.surname.trim()) {
        next.displayName = fullName(next.forename, next.surname);
      }
      return next;
    });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const filled = { ...values, displayName: values.displayName.trim() || fullName(values.forename, values.surname) };
    const { data, errors: errs } = fieldErrors(createUserFormSchema, filled);
    setErrors(errs);
    if (!data) return;
    setPending(true);
    const { confirmPassword: _c, ...payload } = data;
    if (await onSubmit(payload)) onClose();
    setPending(false);
  }

  return (
    <Dialog open={open} onClose={onClose} title="Create New User" description="Add a new staff account. Assign roles after creating it.">
      <form id="create-user-form" onSubmit={submit} noValidate className="space-y-4">
        <NameFields values={values} errors={errors} set={set} />
        <PasswordField label="Password" name="password" autoComplete="new-password" hint={PASSWORD_HINT.staff} value={values.password} onChange={(e) => set('password', e.target.value)} error={errors.password} />
        <PasswordField
          label="Confirm Password"
          name="confirmPassword"
          autoComplete="new-password"
          placeholder="Please confirm password"
          value={values.confirmPassword}
          onChange={(e) => set('confirmPassword', e.target.value)}
          error={errors.confirmPassword}
        />
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? 'Creating...' : 'Create User'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export interface EditUserResult {
  details: { username: string; email: string; forename: string; surname: string; displayName: string; isActive: boolean; password?: string };
  roleIds: number[];
}

export function EditUserDialog({
  user,
  roles,
  onClose,
  onSubmit,
}: {
  user: UserRow | null;
  roles: RoleOption[];
  onClose: () => void;
  onSubmit: (user: UserRow, result: EditUserResult) => Promise<boolean>;
}) {
  const [values, setValues] = useState({ forename: '', surname: '', username: '', email: '', displayName: '', newPassword: '', confirmPassword: '' });
  const [isActive, setIsActive] = useState(true);
  const [roleIds, setRoleIds] = useState<number[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!user) return;
    setValues({ forename: user.forename, surname: user.surname, username: user.username, email: user.email, displayName: user.displayName, newPassword: '', confirmPassword: '' });
    setIsActive(user.isActive);
    setRoleIds(user.roles.map((r) => r.id));
    setErrors({});
  }, [user]);

  const set: Setter = (key, value) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!user) return;
    const { data, errors: errs } = fieldErrors(editUserFormSchema, { ...values, isActive });
    setErrors(errs);
    if (!data) return;
    setPending(true);
    const { newPassword, confirmPassword: _c, ...details } = data;
    const ok = await onSubmit(user, { details: newPassword ? { ...details, password: newPassword } : details, roleIds });
    setPending(false);
    if (ok) onClose();
  }

  return (
    <Dialog open={!!user} onClose={onClose} title="Edit User" description={user ? `Update ${user.displayName || user.username}'s details, roles and status.` : undefined} size="lg">
      <form onSubmit={submit} noValidate className="space-y-4">
        <NameFields values={values} errors={errors} set={set} />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Roles</legend>
          {roles.length === 0 && <p className="text-sm text-fg-muted">No roles available</p>}
          <div className="grid gap-2 sm:grid-cols-2">
            {roles.filter((r) => !r.isProtected || user?.roles.some((held) => held.id === r.id)).map((r) => (
              <label key={r.id} className="flex items-start gap-2 rounded-md border border-line p-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 accent-accent"
                  checked={roleIds.includes(r.id)}
                  onChange={(e) => setRoleIds((ids) => (e.target.checked ? [...ids, r.id] : ids.filter((id) => id !== r.id)))}
                />
                <span>
                  <span className="font-medium">{r.name}</span>
                  {r.description && <span className="block text-xs text-fg-muted">{r.description}</span>}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" name="isActive" className="h-4 w-4 accent-accent" checked={isActive} onChange={(e) => setIsActive(e.target.checked)} />
          Account Active
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField
            label="New Password"
            name="newPassword"
            autoComplete="new-password"
            placeholder="Leave empty to keep current"
            hint={PASSWORD_HINT.staff}
            value={values.newPassword}
            onChange={(e) => set('newPassword', e.target.value)}
            error={errors.newPassword}
          />
          <PasswordField
            label="Confirm New Password"
            name="confirmPassword"
            autoComplete="new-password"
            placeholder="Leave empty to keep current"
            value={values.confirmPassword}
            onChange={(e) => set('confirmPassword', e.target.value)}
            error={errors.confirmPassword}
          />
        </div>
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? 'Saving...' : 'Update User'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
