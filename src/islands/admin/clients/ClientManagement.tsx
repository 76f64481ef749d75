// Client Management (001 §2 'Client Management', §4, §5, §8).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Plus, Search, UserRound, X } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import type { ClientRow } from '../../../shared/schemas/clients.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Select } from '../../ui/Select.tsx';
import { ClientCard, ClientCardSkeleton } from './ClientCard.tsx';
import { ClientDialog, type ClientSubmit } from './ClientDialog.tsx';
import { COMPANY_FILTERS, DEFAULT_SORT, SORTS, filterClients, type ClientFilters, type CompanyFilter, type SortOrder } from './filtering.ts';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { EraseClientDialog } from './EraseClientDialog.tsx';

const SKELETONS = 6;
const NO_FILTERS: ClientFilters = { search: '', company: 'all', sort: DEFAULT_SORT };

const RESULT = {
  create: ['Client created successfully', 'Failed to create client'],
  update: ['Client updated successfully', 'Failed to update client'],
  reset: ['Password reset successfully', 'Failed to reset password'],
} as const;

export default function ClientManagement({ canEdit }: { canEdit: boolean }) {
  const [clients, setClients] = useState<ClientRow[] | null>(null);
  const [filters, setFilters] = useState<ClientFilters>(NO_FILTERS);
  const [dialog, setDialog] = useState<{ client: ClientRow | null } | null>(null);
  const [deleting, setDeleting] = useState<ClientRow | null>(null);
  const [deletePending, setDeletePending] = useState(false);
  const [erasing, setErasing] = useState<ClientRow | null>(null);

  const load = useCallback(async () => {
    try {
      setClients(await apiJson<ClientRow[]>('GET', '/api/clients'));
    } catch (e) {
      setClients([]);
      toast({ title: 'Failed to load clients', description: errorMessage(e), variant: 'destructive' });
    }
  }, []);
  useEffect(() => void load(), [load]);

  const shown = useMemo(() => filterClients(clients ?? [], filters), [clients, filters]);
  const chips = [
    filters.search.trim() && { key: 'search', label: `Search: "${filters.search.trim()}"`, clear: { search: '' } },
    filters.company !== 'all' && { key: 'company', label: COMPANY_FILTERS.find((c) => c.value === filters.company)!.label, clear: { company: 'all' as const } },
    filters.sort !== DEFAULT_SORT && { key: 'sort', label: `Sort: ${SORTS.find((s) => s.value === filters.sort)!.label}`, clear: { sort: DEFAULT_SORT } },
  ].filter((c) => !!c);
  const filtering = chips.length > 0;
  const clear = () => setFilters(NO_FILTERS);

  async function submit(action: ClientSubmit) {
    const [success, failure] = RESULT[action.kind];
    try {
      if (action.kind === 'create') await apiJson('POST', '/api/clients', action.data);
      else if (action.kind === 'update') await apiJson('PUT', `/api/clients/${action.id}`, action.data);
      else await apiJson('PUT', `/api/clients/${action.id}/reset-password`, { password: action.password });
      toast({ title: success });
      await load();
      return true;
    } catch {
      // 001 §8 lists these client failures without detail: the title alone.
      toast({ title: failure, variant: 'destructive' });
      return false;
    }
  }

  async function remove() {
    if (!deleting) return;
    setDeletePending(true);
    try {
      await apiJson('DELETE', `/api/clients/${deleting.id}`);
      toast({ title: 'Client deleted successfully' });
      setDeleting(null);
      await load();
    } catch {
      toast({ title: 'Failed to delete client', variant: 'destructive' });
    } finally {
      setDeletePending(false);
    }
  }

  const openAdd = () => setDialog({ client: null });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Client Management</h1>
          <p className="mt-1 text-fg-muted" data-testid="client-count">
            Manage client accounts and information ({shown.length} of {clients?.length ?? 0} clients)
          </p>
        </div>
        {canEdit && (
          <Button onClick={openAdd}>
            <Plus size={16} aria-hidden="true" />
            Add Client
          </Button>
        )}
      </div>

      <div className="space-y-3 rounded-xl border border-line bg-raised p-4">
        <div className="flex flex-col gap-3 md:flex-row md:items-end">
          <SearchInput
            id="client-search"
            label="Search clients"
            wrapperClassName="flex-1"
            placeholder="Search clients by name, email, company, or notes..."
            value={filters.search}
            onValueChange={(v) => setFilters((f) => ({ ...f, search: v }))}
            className="h-10"
          />
          <div className="grid grid-cols-2 gap-3 md:flex">
            <Select
              label="Company filter"
              hideLabel
              options={[...COMPANY_FILTERS]}
              value={filters.company}
              onChange={(e) => setFilters((f) => ({ ...f, company: e.target.value as CompanyFilter }))}
            />
            <Select label="Sort clients" hideLabel options={[...SORTS]} value={filters.sort} onChange={(e) => setFilters((f) => ({ ...f, sort: e.target.value as SortOrder }))} />
          </div>
          {filtering && (
            <Button variant="outline" onClick={clear}>
              <X size={16} aria-hidden="true" />
              Clear
            </Button>
          )}
        </div>
        {filtering && (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-fg-muted">Active filters:</span>
            {chips.map((c) => (
              <span key={c.key} className="inline-flex items-center gap-1 rounded-full bg-muted py-0.5 pl-3 pr-1 text-xs font-medium">
                {c.label}
                <button
                  type="button"
                  aria-label={`Remove filter ${c.label}`}
                  onClick={() => setFilters((f) => ({ ...f, ...c.clear }))}
                  className="rounded-full p-0.5 hover:bg-line"
                >
                  <X size={12} aria-hidden="true" />
                </button>
              </span>
            ))}
          </div>
        )}
      </div>

      {clients === null ? (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading clients">
          {Array.from({ length: SKELETONS }, (_, i) => (
            <ClientCardSkeleton key={i} />
          ))}
        </div>
      ) : shown.length === 0 ? (
        clients.length > 0 ? (
          <EmptyState
            icon={<Search size={32} aria-hidden="true" />}
            title="No clients match your filters"
            description="Try a different search or filter."
            action={<Button variant="outline" onClick={clear}>Clear Filters</Button>}
          />
        ) : (
          <EmptyState
            icon={<UserRound size={32} aria-hidden="true" />}
            title="No clients found"
            description="Get started by adding your first client"
            action={canEdit ? <Button onClick={openAdd}>Add First Client</Button> : undefined}
          />
        )
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" aria-label="Clients">
          {shown.map((c) => (
            <li key={c.id} className="flex">
              <ClientCard client={c} canEdit={canEdit} onEdit={() => setDialog({ client: c })} onDelete={() => setDeleting(c)} onErase={() => setErasing(c)} />
            </li>
          ))}
        </ul>
      )}

      <ClientDialog open={!!dialog} client={dialog?.client ?? null} onClose={() => setDialog(null)} onSubmit={submit} onFactorReset={() => void load()} />
      <EraseClientDialog
        client={erasing}
        onClose={() => setErasing(null)}
        onErased={() => {
          setErasing(null);
          void load();
        }}
      />
      <ConfirmDialog
        open={!!deleting}
        title="Delete Client"
        message={
          deleting ? `Are you sure you want to delete ${deleting.name}? This action cannot be undone and will remove all media assignments for this client.` : ''
        }
        confirmLabel={deletePending ? 'Deleting...' : 'Delete'}
        pending={deletePending}
        onConfirm={remove}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
