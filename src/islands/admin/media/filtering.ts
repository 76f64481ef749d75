// Search and filters of the media screen (001 §2), kept pure so they stay fast on
// thousands of items: each item's search text is built once per list, not per keystroke.
import type { AdminMedia } from '../../../shared/schemas/media.ts';

export type TypeFilter = 'all' | 'featured' | 'portfolio' | 'image' | 'video';

export interface MediaFilters {
  search: string;
  type: TypeFilter;
  /** 'all', 'unassigned' or a client id as text. */
  client: string;
  /** 'all' or a tag. */
  tag: string;
  /** 'all', 'none' or a stage. */
  stage: string;
  /** 'all', or the current version's client decision (issue 16). */
  approval: ApprovalFilter;
}

export type ApprovalFilter = 'all' | 'awaiting' | 'changes_requested' | 'approved' | 'waiting_on_me' | 'overdue';

/** The items whose open review stage waits on the signed-in user, and those overdue (issue 57). */
export interface RoundLists {
  waitingOnMe: ReadonlySet<number>;
  overdue: ReadonlySet<number>;
}
const NO_ROUNDS: RoundLists = { waitingOnMe: new Set(), overdue: new Set() };

export const EMPTY_FILTERS: MediaFilters = { search: '', type: 'all', client: 'all', tag: 'all', stage: 'all', approval: 'all' };

export function isFiltered(f: MediaFilters): boolean {
  return f.search.trim() !== '' || f.type !== 'all' || f.client !== 'all' || f.tag !== 'all' || f.stage !== 'all' || f.approval !== 'all';
}

/** Lower-cased title, tags, stage and notes of every item. */
export function buildSearchIndex(items: AdminMedia[]): Map<number, string> {
  const index = new Map<number, string>();
  for (const m of items) {
    index.set(m.id, [m.title, m.tags.join(' '), m.projectStage ?? '', m.notes ?? ''].join('\n').toLowerCase());
  }
  return index;
}

function clientIdsOf(m: AdminMedia): number[] {
  const ids = m.assignedClients.map((c) => c.id);
  if (m.clientId !== null && !ids.includes(m.clientId)) ids.push(m.clientId);
  return ids;
}

/** Waiting for the client: assigned to one and no decision yet on the current version (as the dashboard counts). */
export function awaitingApproval(m: AdminMedia): boolean {
  return m.approvalStatus === 'in_review' && clientIdsOf(m).length > 0;
}

export function filterMedia(items: AdminMedia[], f: MediaFilters, index: Map<number, string>, rounds: RoundLists = NO_ROUNDS): AdminMedia[] {
  const q = f.search.trim().toLowerCase();
  const clientId = f.client === 'all' || f.client === 'unassigned' ? null : Number(f.client);
  return items.filter((m) => {
    if (q && !index.get(m.id)?.includes(q)) return false;
    switch (f.type) {
      case 'featured':
        if (!m.isFeatured) return false;
        break;
      case 'portfolio':
        if (!m.showInPortfolio) return false;
        break;
      case 'image':
      case 'video':
        if (m.type !== f.type) return false;
        break;
    }
    if (f.client === 'unassigned' && clientIdsOf(m).length > 0) return false;
    if (clientId !== null && !clientIdsOf(m).includes(clientId)) return false;
    if (f.tag !== 'all' && !m.tags.includes(f.tag)) return false;
    if (f.stage === 'none' && m.projectStage) return false;
    if (f.stage !== 'all' && f.stage !== 'none' && m.projectStage !== f.stage) return false;
    if (f.approval === 'awaiting' && !awaitingApproval(m)) return false;
    if ((f.approval === 'approved' || f.approval === 'changes_requested') && m.approvalStatus !== f.approval) return false;
    if (f.approval === 'waiting_on_me' && !rounds.waitingOnMe.has(m.id)) return false;
    if (f.approval === 'overdue' && !rounds.overdue.has(m.id)) return false;
    return true;
  });
}

/** Clients that have media (assigned, or named as the item's client), by name. */
export function clientsWithMedia(items: AdminMedia[], names: Map<number, string>): { id: number; name: string }[] {
  const found = new Map<number, string>();
  for (const m of items) {
    for (const c of m.assignedClients) found.set(c.id, c.name);
    if (m.clientId !== null && !found.has(m.clientId)) found.set(m.clientId, names.get(m.clientId) ?? `Client #${m.clientId}`);
  }
  return [...found].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

export function tagsInUse(items: AdminMedia[]): string[] {
  const tags = new Set<string>();
  for (const m of items) for (const t of m.tags) tags.add(t);
  return [...tags].sort((a, b) => a.localeCompare(b));
}

/** Bulk tag actions (001 §4): add as a union, replace, or remove (case-insensitive). */
export type TagMode = 'add' | 'replace' | 'remove';
export function applyTagAction(current: string[], given: string[], mode: TagMode): string[] {
  if (mode === 'replace') return [...given];
  if (mode === 'add') {
    const have = new Set(current.map((t) => t.toLowerCase()));
    return [...current, ...given.filter((t) => !have.has(t.toLowerCase()))];
  }
  const drop = new Set(given.map((t) => t.toLowerCase()));
  return current.filter((t) => !drop.has(t.toLowerCase()));
}
