// User Management (001 §2 'User Management', §5, §8): the 'All Users' table and its dialogs.
import { formatDate } from '../../../shared/format.ts';
import { useCallback, useEffect, useState } from 'react';
import { KeyRound, Pencil, Plus, ShieldAlert, ShieldCheck, Trash2, Users } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import type { UserRow } from '../../../shared/schemas/users.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { CreateUserDialog, EditUserDialog, type EditUserResult, type RoleOption } from './UserDialogs.tsx';

const failed = (title: string, e: unknown) => toast({ title, description: errorMessage(e), variant: 'destructive' });

export default function UserManagement({ currentUserId, canEdit }: { currentUserId: string; canEdit: boolean }) {
  const [users, setUsers] = useState<UserRow[] | null>(null);
  const [roles, setRoles] = useState<RoleOption[]>([]);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [deleting, setDeleting] = useState<UserRow | null>(null);
  const [deletePending, setDeletePending] = useState(false);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const [resetPending, setResetPending] = useState(false);

  const loadUsers = useCallback(async () => {
    try {
      setUsers(await apiJson<UserRow[]>('GET', '/api/users'));
    } catch (e) {
      setUsers([]);
      failed('Failed to load users', e);
    }
  }, []);

  // Role choices for the Edit User dialog; only user editors need (and may read) them.
  const loadRoles = useCallback(() => {
    if (canEdit) apiJson<RoleOption[]>('GET', '/api/roles').then(setRoles, () => setRoles([]));
  }, [canEdit]);

  useEffect(() => {
    void loadUsers();
    loadRoles();
  }, [loadUsers, loadRoles]);

  const openEdit = (u: UserRow) => {
    setEditing(u);
    // Roles may have changed on the Roles screen since this page loaded.
    loadRoles();
  };

  async function create(data: Record<string, string>) {
    try {
      await apiJson('POST', '/api/users', data);
      toast({ title: 'User created', description: 'New user has been successfully created.' });
      await loadUsers();
      return true;
    } catch (e) {
      failed('Failed to create user', e);
      return false;
    }
  }

  async function update(user: UserRow, { details, roleIds }: EditUserResult) {
    try {
      await apiJson('PUT', `/api/users/${user.id}`, details);
      await apiJson('PUT', `/api/users/${user.id}/roles`, { roleIds });
      toast({ title: 'User updated', description: `${details.displayName || details.username} has been updated.` });
      return true;
    } catch (e) {
      failed('Failed to update user', e);
      return false;
    } finally {
      await loadUsers();
    }
  }

  async function remove() {
    if (!deleting) return;
    setDeletePending(true);
    try {
      await apiJson('DELETE', `/api/users/${deleting.id}`);
      toast({ title: 'User deleted', description: `${deleting.username} has been deleted.` });
      setDeleting(null);
      await loadUsers();
    } catch (e) {
      failed('Failed to delete user', e);
    } finally {
      setDeletePending(false);
    }
  }

  // Issue 56: a lost phone and lost recovery codes; the user is signed out everywhere.
  async function resetFactor() {
    if (!resetting) return;
    setResetPending(true);
    try {
      await apiJson('DELETE', `/api/users/${resetting.id}/second-factor`);
      toast({ title: 'Second factor reset', description: `${resetting.username} was signed out everywhere and signs in next with the password${resetting.secondFactorRequired ? ', then sets up an app again' : ''}.` });
      setResetting(null);
      await loadUsers();
    } catch (e) {
      failed('Failed to reset the second factor', e);
    } finally {
      setResetPending(false);
    }
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">User Management</h1>
          <p className="mt-1 text-fg-muted">Manage users, roles, and permissions</p>
        </div>
        {canEdit && (
          <Button onClick={() => setCreating(true)}>
            <Plus size={16} aria-hidden="true" />
            Add User
          </Button>
        )}
      </div>

      <Card>
        <CardHeader title="All Users" description={users ? `${users.length} ${users.length === 1 ? 'user' : 'users'}` : undefined} />
        <CardBody>
          {users === null ? (
            <Spinner label="Loading users" className="py-12" />
          ) : users.length === 0 ? (
            <EmptyState
              icon={<Users size={32} aria-hidden="true" />}
              title="No users found"
              description="Get started by creating your first user."
              action={canEdit ? <Button onClick={() => setCreating(true)}>Add User</Button> : undefined}
            />
          ) : (
            <div className="-mx-5 overflow-x-auto">
              <table className="w-full min-w-[46rem] text-left text-sm">
                <thead className="border-b border-line text-xs uppercase tracking-wide text-fg-muted">
                  <tr>
                    <th scope="col" className="px-5 py-2 font-medium">User</th>
                    <th scope="col" className="px-3 py-2 font-medium">Roles</th>
                    <th scope="col" className="px-3 py-2 font-medium">Status</th>
                    <th scope="col" className="px-3 py-2 font-medium">Sign-in</th>
                    <th scope="col" className="px-3 py-2 font-medium">Created</th>
                    <th scope="col" className="px-5 py-2 text-right font-medium">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {users.map((u) => {
                    const name = u.displayName || u.username;
                    return (
                      <tr key={u.id} className="border-b border-line last:border-0" data-testid="user-row">
                        <td className="px-5 py-3">
                          <div className="flex items-center gap-3">
                            <span aria-hidden="true" className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-accent font-semibold uppercase text-accent-fg">
                              {name.charAt(0)}
                            </span>
                            <div className="min-w-0">
                              <div className="truncate font-medium">{name}</div>
                              <div className="truncate text-xs text-fg-muted">{u.email}</div>
                            </div>
                          </div>
                        </td>
                        <td className="px-3 py-3">
                          {u.roles.length ? (
                            <div className="flex flex-wrap gap-1">
                              {u.roles.map((r) => (
                                <Badge key={r.id} tone="outline">
                                  {r.name}
                                </Badge>
                              ))}
                            </div>
                          ) : (
                            <span className="text-fg-muted">No roles assigned</span>
                          )}
                        </td>
                        <td className="px-3 py-3">
                          <Badge tone={u.isActive ? 'success' : 'default'}>{u.isActive ? 'Active' : 'Inactive'}</Badge>
                        </td>
                        <td className="px-3 py-3" data-testid="user-sign-in">
                          {u.secondFactor ? (
                            <Badge tone="success">
                              <ShieldCheck size={12} aria-hidden="true" /> Authenticator
                            </Badge>
                          ) : u.secondFactorRequired ? (
                            <Badge tone="warning">
                              <ShieldAlert size={12} aria-hidden="true" /> Must set up
                            </Badge>
                          ) : (
                            <span className="text-fg-muted">Password only</span>
                          )}
                        </td>
                        <td className="px-3 py-3 whitespace-nowrap">{formatDate(u.createdAt)}</td>
                        <td className="px-5 py-3">
                          {canEdit && (
                            <div className="flex justify-end gap-1">
                              <Button variant="ghost" size="icon" aria-label={`Edit ${u.username}`} onClick={() => openEdit(u)}>
                                <Pencil size={16} aria-hidden="true" />
                              </Button>
                              {u.secondFactor && u.id !== currentUserId && (
                                <Button variant="ghost" size="icon" aria-label={`Reset ${u.username}'s second factor`} title="Reset second factor" onClick={() => setResetting(u)}>
                                  <KeyRound size={16} aria-hidden="true" />
                                </Button>
                              )}
                              <Button
                                variant="ghost"
                                size="icon"
                                className="text-danger"
                                aria-label={`Delete ${u.username}`}
                                title={u.id === currentUserId ? "You can't delete your own account" : undefined}
                                disabled={u.id === currentUserId}
                                onClick={() => setDeleting(u)}
                              >
                                <Trash2 size={16} aria-hidden="true" />
                              </Button>
                            </div>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </CardBody>
      </Card>

      <CreateUserDialog open={creating} onClose={() => setCreating(false)} onSubmit={create} />
      <EditUserDialog user={editing} roles={roles} onClose={() => setEditing(null)} onSubmit={update} />
      <ConfirmDialog
        open={!!deleting}
        title="Delete User"
        message={deleting ? `Are you sure you want to delete the user "${deleting.username}"? This action cannot be undone.` : ''}
        confirmLabel={deletePending ? 'Deleting...' : 'Delete User'}
        pending={deletePending}
        onConfirm={remove}
        onCancel={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={!!resetting}
        title="Reset second factor"
        message={
          resetting
            ? `Remove ${resetting.username}'s authenticator app and recovery codes, and sign them out everywhere? Do this only when you are sure it is them asking (a lost phone). They sign in next with their password${resetting.secondFactorRequired ? ' and must set up an app again before anything else' : ''}.`
            : ''
        }
        confirmLabel={resetPending ? 'Resetting...' : 'Reset'}
        pending={resetPending}
        onConfirm={resetFactor}
        onCancel={() => setResetting(null)}
      />
    </div>
  );
}
