// The audit log screen (issue 56): filters by person, kind, object and days, newest first, a
// page at a time (the server's keyset: "Older" carries on from the last row shown), and the
// filtered rows as CSV. A person or object in a row filters by it.
import { useCallback, useEffect, useState } from 'react';
import { Download, ScrollText, X } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { AUDIT_GROUPS, AUDIT_KINDS, isAuditKind, type AuditPage, type AuditPerson, type AuditRowView } from '../../../shared/audit.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Spinner } from '../../ui/Spinner.tsx';

interface Filters {
  actor: string;
  kind: string;
  objectType: string;
  objectId: string;
  from: string;
  to: string;
}

const NONE: Filters = { actor: '', kind: '', objectType: '', objectId: '', from: '', to: '' };
const OBJECT_TYPES = ['user', 'role', 'permission', 'client', 'share_link', 'media', 'gallery', 'settings', 'backup', 'audit'];
const PAGE = 50;

const kindOptions = [
  { value: '', label: 'All kinds' },
  ...Object.entries(AUDIT_KINDS).map(([value, label]) => ({ value, label: `${AUDIT_GROUPS[value.split('.')[0]!] ?? ''}: ${label}` })),
];

function query(f: Filters, before?: string): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) p.set(k, v);
  if (before) p.set('before', before);
  return p.toString();
}

function detailText(detail: string): string {
  if (!detail) return '';
  try {
    return Object.entries(JSON.parse(detail) as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
      .join('; ');
  } catch {
    return detail;
  }
}

export default function AuditLog() {
  const [filters, setFilters] = useState<Filters>(NONE);
  const [people, setPeople] = useState<AuditPerson[]>([]);
  const [rows, setRows] = useState<AuditRowView[] | null>(null);
  // The `before` of each page shown so far: the first is the newest page.
  const [pages, setPages] = useState<(string | undefined)[]>([undefined]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    apiJson<AuditPerson[]>('GET', '/api/audit/people').then(setPeople, () => setPeople([]));
  }, []);

  const load = useCallback(async (f: Filters, before: string | undefined) => {
    setLoading(true);
    try {
      const page = await apiJson<AuditPage>('GET', `/api/audit?${query({ ...f }, before)}&limit=${PAGE}`);
      setRows(page.rows);
      setNext(page.next);
    } catch (e) {
      toast({ title: 'Failed to load the audit log', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    setPages([undefined]);
    void load(filters, undefined);
  }, [filters, load]);

  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));
  const older = () => {
    if (!next) return;
    setPages((p) => [...p, next]);
    void load(filters, next);
  };
  const newer = () => {
    const p = pages.slice(0, -1);
    setPages(p);
    void load(filters, p.at(-1));
  };
  const known = new Set(people.map((p) => p.key));
  const personOptions = [
    { value: '', label: 'Everyone' },
    ...(filters.actor && !known.has(filters.actor) ? [{ value: filters.actor, label: filters.actor }] : []),
    ...people.map((p) => ({ value: p.key, label: p.name })),
    { value: 'anonymous', label: 'Not signed in' },
    { value: 'system', label: 'The system (backups, retention)' },
  ];
  const filtering = Object.values(filters).some(Boolean);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Audit log</h1>
          <p className="mt-1 text-fg-muted">Who did what, from where: sign-ins, account and permission changes, share links, downloads, approvals, settings and backups.</p>
        </div>
        <a href={`/api/audit/csv?${query(filters)}`} download className={buttonClass('outline', 'md')} data-testid="audit-csv">
          <Download size={16} aria-hidden="true" />
          Export CSV
        </a>
      </div>

      <div className="grid grid-cols-1 gap-3 rounded-xl border border-line bg-raised p-4 md:grid-cols-3 lg:grid-cols-6" role="search" aria-label="Filter the audit log">
        <Select label="Person" options={personOptions} value={filters.actor} onChange={(e) => set({ actor: e.target.value })} />
        <Select label="Kind" options={kindOptions} value={filters.kind} onChange={(e) => set({ kind: e.target.value })} />
        <Select
          label="Object type"
          options={[{ value: '', label: 'Any object' }, ...OBJECT_TYPES.map((t) => ({ value: t, label: t.replace('_', ' ') }))]}
          value={filters.objectType}
          onChange={(e) => set({ objectType: e.target.value, objectId: e.target.value ? filters.objectId : '' })}
        />
        <Field label="Object id" value={filters.objectId} disabled={!filters.objectType} onChange={(e) => set({ objectId: e.target.value.trim() })} />
        <Field label="From" type="date" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
        <Field label="To" type="date" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
        {filtering && (
          <div className="md:col-span-3 lg:col-span-6">
            <Button variant="outline" size="sm" onClick={() => setFilters(NONE)}>
              <X size={14} aria-hidden="true" />
              Clear filters
            </Button>
          </div>
        )}
      </div>

      {rows === null ? (
        <div className="flex justify-center py-12">
          <Spinner />
        </div>
      ) : rows.length === 0 ? (
        <EmptyState icon={<ScrollText size={32} aria-hidden="true" />} title="No rows" description={filtering ? 'Nothing matches these filters.' : 'Nothing has been recorded yet.'} />
      ) : (
        <div className="overflow-x-auto rounded-xl border border-line" aria-busy={loading}>
          <table className="w-full text-left text-sm" data-testid="audit-table">
            <thead className="bg-muted text-xs uppercase text-fg-muted">
              <tr>
                <th className="px-3 py-2">When</th>
                <th className="px-3 py-2">What</th>
                <th className="px-3 py-2">Who</th>
                <th className="px-3 py-2">From</th>
                <th className="px-3 py-2">Object</th>
                <th className="px-3 py-2">Detail</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-t border-line align-top" data-testid="audit-row">
                  <td className="whitespace-nowrap px-3 py-2" title={`#${r.id} ${r.at}`}>
                    {formatDateTime(r.at)}
                  </td>
                  <td className="px-3 py-2">
                    {isAuditKind(r.kind) ? AUDIT_KINDS[r.kind] : r.kind}
                    {r.factor && <span className="block text-xs text-fg-muted">factor: {r.factor}</span>}
                  </td>
                  <td className="px-3 py-2">
                    <button type="button" className="text-left hover:underline" title="Show only this person" onClick={() => set({ actor: r.actorKey })}>
                      {r.actorName || r.actorType}
                    </button>
                  </td>
                  <td className="px-3 py-2 text-fg-muted">
                    {r.ip ?? ''}
                    {r.agent && <span className="block text-xs">{r.agent}</span>}
                  </td>
                  <td className="px-3 py-2">
                    {r.objectType && (
                      <button type="button" className="text-left hover:underline" title="Show only this object" onClick={() => set({ objectType: r.objectType!, objectId: r.objectId ?? '' })}>
                        {r.objectType.replace('_', ' ')} {r.objectName || r.objectId}
                      </button>
                    )}
                  </td>
                  <td className="max-w-md break-words px-3 py-2 text-fg-muted">{detailText(r.detail)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="flex items-center justify-between gap-2">
        <Button variant="outline" onClick={newer} disabled={pages.length < 2 || loading}>
          Newer
        </Button>
        <span className="text-sm text-fg-muted" data-testid="audit-page">
          Page {pages.length}
        </span>
        <Button variant="outline" onClick={older} disabled={!next || loading}>
          Older
        </Button>
      </div>
    </div>
  );
}
