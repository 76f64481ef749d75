// Search, company filter and sort orders of the Client Management screen (001 §2, §9).
import type { ClientRow } from '../../../shared/schemas/clients.ts';

export const COMPANY_FILTERS = [
  { value: 'all', label: 'All Clients' },
  { value: 'with', label: 'With Company' },
  { value: 'without', label: 'No Company' },
] as const;
export type CompanyFilter = (typeof COMPANY_FILTERS)[number]['value'];

export const SORTS = [
  { value: 'newest', label: 'Newest First' },
  { value: 'oldest', label: 'Oldest First' },
  { value: 'name-asc', label: 'Name A-Z' },
  { value: 'name-desc', label: 'Name Z-A' },
  { value: 'company-asc', label: 'Company A-Z' },
  { value: 'company-desc', label: 'Company Z-A' },
] as const;
export type SortOrder = (typeof SORTS)[number]['value'];
export const DEFAULT_SORT: SortOrder = 'newest';

export interface ClientFilters {
  search: string;
  company: CompanyFilter;
  sort: SortOrder;
}

const time = (c: ClientRow) => (c.createdAt ? new Date(c.createdAt).getTime() : 0);
const text = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });

const COMPARE: Record<SortOrder, (a: ClientRow, b: ClientRow) => number> = {
  newest: (a, b) => time(b) - time(a) || b.id - a.id,
  oldest: (a, b) => time(a) - time(b) || a.id - b.id,
  'name-asc': (a, b) => text(a.name, b.name),
  'name-desc': (a, b) => text(b.name, a.name),
  // Clients without a company go last in both directions.
  'company-asc': (a, b) => Number(!a.company) - Number(!b.company) || text(a.company, b.company) || text(a.name, b.name),
  'company-desc': (a, b) => Number(!a.company) - Number(!b.company) || text(b.company, a.company) || text(a.name, b.name),
};

export function filterClients(clients: ClientRow[], f: ClientFilters): ClientRow[] {
  const q = f.search.trim().toLowerCase();
  return clients
    .filter((c) => !q || [c.name, c.email, c.company, c.notes].some((v) => v?.toLowerCase().includes(q)))
    .filter((c) => f.company === 'all' || (f.company === 'with' ? !!c.company.trim() : !c.company.trim()))
    .sort(COMPARE[f.sort]);
}
