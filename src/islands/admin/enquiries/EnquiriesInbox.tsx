// /admin/enquiries: the contact form's enquiries, newest first. Loads the whole list once and
// filters in the browser (a studio's inbox is small); status changes go to PATCH /api/enquiries/{id}.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Inbox, RefreshCw } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import type { Enquiry, EnquiryStatus } from '../../../shared/schemas/enquiry.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { EnquiryDetail } from './EnquiryDetail.tsx';
import { EnquiryRow } from './EnquiryRow.tsx';
import { matchesSearch } from './format.ts';
import { SearchInput } from '../../ui/SearchInput.tsx';

type Filter = 'all' | EnquiryStatus;
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'new', label: 'New' },
  { value: 'read', label: 'Read' },
  { value: 'archived', label: 'Archived' },
];

const DONE: Partial<Record<EnquiryStatus, string>> = { archived: 'Enquiry archived', new: 'Marked as new' };
const FAILED: Record<EnquiryStatus, string> = {
  new: 'Could not mark the enquiry as new',
  read: 'Could not update the enquiry',
  archived: 'Could not archive the enquiry',
};

export default function EnquiriesInbox() {
  const [items, setItems] = useState<Enquiry[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [filter, setFilter] = useState<Filter>('all');
  const [query, setQuery] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const [pending, setPending] = useState<Set<number>>(new Set());

  const load = useCallback(async () => {
    setLoadError(false);
    try {
      setItems(await apiJson<Enquiry[]>('GET', '/api/enquiries'));
    } catch (err) {
      setLoadError(true);
      toast({ title: 'Failed to load enquiries', description: errorMessage(err), variant: 'destructive' });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const replace = (next: Enquiry) => setItems((list) => list?.map((x) => (x.id === next.id ? next : x)) ?? list);
  const setBusy = (id: number, busy: boolean) =>
    setPending((s) => {
      const n = new Set(s);
      if (busy) n.add(id);
      else n.delete(id);
      return n;
    });

  /** Optimistic: the badge changes at once and goes back if the server says no. */
  async function changeStatus(e: Enquiry, status: EnquiryStatus, quiet = false) {
    if (e.status === status) return;
    replace({ ...e, status });
    setBusy(e.id, true);
    try {
      replace(await apiJson<Enquiry>('PATCH', `/api/enquiries/${e.id}`, { status }));
      const done = e.status === 'archived' ? 'Enquiry restored' : DONE[status];
      if (!quiet && done) toast({ title: done });
    } catch (err) {
      replace(e);
      toast({ title: FAILED[status], description: errorMessage(err), variant: 'destructive' });
    } finally {
      setBusy(e.id, false);
    }
  }

  function open(e: Enquiry) {
    setOpenId(e.id);
    if (e.status === 'new') void changeStatus(e, 'read', true);
  }

  const counts = useMemo(() => {
    const c: Record<Filter, number> = { all: 0, new: 0, read: 0, archived: 0 };
    for (const e of items ?? []) {
      c.all++;
      c[e.status]++;
    }
    return c;
  }, [items]);
  const shown = useMemo(
    () => (items ?? []).filter((e) => (filter === 'all' || e.status === filter) && matchesSearch(e, query)),
    [items, filter, query],
  );
  const opened = items?.find((e) => e.id === openId) ?? null;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Enquiries</h1>
          <p className="mt-1 text-fg-muted">
            Messages sent through the contact form.
            {items && counts.new > 0 && <span className="ml-1 font-medium text-fg">{counts.new} new.</span>}
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={() => void load()} disabled={items === null && !loadError}>
          <RefreshCw size={14} aria-hidden="true" /> Refresh
        </Button>
      </div>

      <SearchInput
        id="enquiry-search"
        label="Search enquiries"
        wrapperClassName="max-w-md"
        value={query}
        onValueChange={setQuery}
        placeholder="Search by name, email or message"
      />

      <Tabs
        label="Filter by status"
        value={filter}
        onChange={setFilter}
        tabs={FILTERS.map((f) => ({
          value: f.value,
          label: (
            <>
              {f.label}
              {items && <span className="ml-1.5 text-xs text-fg-muted">{counts[f.value]}</span>}
            </>
          ),
        }))}
      >
        {items === null ? (
          loadError ? (
            <EmptyState
              title="The enquiries could not be loaded"
              description="Check your connection and try again."
              action={<Button onClick={() => void load()}>Try again</Button>}
            />
          ) : (
            <Card aria-busy="true" aria-label="Loading enquiries">
              <ul className="divide-y divide-line">
                {Array.from({ length: 5 }, (_, i) => (
                  <li key={i} className="flex gap-4 p-4">
                    <div className="flex-1 space-y-2">
                      <Skeleton className="h-5 w-48" />
                      <Skeleton className="h-4 w-56" />
                      <Skeleton className="h-4 w-full max-w-lg" />
                    </div>
                    <Skeleton className="h-8 w-20" />
                  </li>
                ))}
              </ul>
            </Card>
          )
        ) : items.length === 0 ? (
          <EmptyState
            icon={<Inbox size={32} aria-hidden="true" />}
            title="No enquiries yet"
            description="When someone sends the form on the contact page, their enquiry appears here."
            action={
              <a href="/contact" className="text-sm font-medium underline underline-offset-2">
                View the contact page
              </a>
            }
          />
        ) : shown.length === 0 ? (
          <EmptyState
            title="No enquiries match"
            description={query ? `Nothing matches “${query.trim()}” here.` : 'There are no enquiries with this status.'}
            action={
              <Button
                variant="outline"
                onClick={() => {
                  setQuery('');
                  setFilter('all');
                }}
              >
                Show all enquiries
              </Button>
            }
          />
        ) : (
          <Card className="overflow-hidden">
            <ul className="divide-y divide-line" aria-label="Enquiries">
              {shown.map((e) => (
                <EnquiryRow key={e.id} enquiry={e} pending={pending.has(e.id)} onOpen={open} onStatus={(x, s) => void changeStatus(x, s)} />
              ))}
            </ul>
          </Card>
        )}
      </Tabs>

      <EnquiryDetail
        enquiry={opened}
        pending={opened ? pending.has(opened.id) : false}
        onClose={() => setOpenId(null)}
        onStatus={(x, s) => void changeStatus(x, s)}
      />
    </div>
  );
}
