// Who may receive an event, decided when it is sent (issue 41): the row says its audience, and
// the facts about its item (which clients it is assigned to, which links hold it) are read from
// the database at that moment, once per event for every stream of the process. So a client
// unassigned a second ago, or a link revoked, gets nothing more, whatever it was allowed when
// its stream opened. The same rules as the screens' own reads: server/portal/assigned.ts (a
// client's items) and server/sharing/viewer.ts (a link's items).
import { clientsOf } from '../portal/assigned.ts';
import { activeLinksHolding } from '../sharing/viewer.ts';
import { galleryAudience } from '../proofing/live-audience.ts';
import { parseData, type LiveRow } from './log.ts';
import type { LivePrincipal } from './principal.ts';

export interface ItemFacts {
  clients: Set<number>;
  /** Link id → whether it allows comments (and so live sessions). */
  links: Map<number, boolean>;
}

const NO_FACTS: ItemFacts = { clients: new Set(), links: new Map() };

/** Facts per item (and per gallery), read once for a batch of events (a fresh cache per batch: never stale). */
export class FactsCache {
  #items = new Map<number, Promise<ItemFacts>>();
  #galleries = new Map<number, Promise<ItemFacts>>();

  /** The facts a row's audience needs: its item's, its gallery's (issue 53), or none. */
  of(row: Pick<LiveRow, 'audience' | 'mediaId' | 'data'>): Promise<ItemFacts> {
    if (row.audience !== 'gallery') return this.item(needsFacts(row) ? row.mediaId : null);
    const id = Number(parseData(row).galleryId);
    return Number.isSafeInteger(id) ? this.gallery(id) : Promise.resolve(NO_FACTS);
  }

  /** A gallery's clients and links, in the shape of an item's (its stills have no live sessions). */
  gallery(galleryId: number): Promise<ItemFacts> {
    let facts = this.#galleries.get(galleryId);
    if (!facts) {
      facts = galleryAudience(galleryId).then(({ clients, links }) => ({ clients, links: new Map(links.map((id) => [id, false])) }));
      this.#galleries.set(galleryId, facts);
    }
    return facts;
  }

  item(mediaId: number | null): Promise<ItemFacts> {
    if (mediaId === null) return Promise.resolve(NO_FACTS);
    let facts = this.#items.get(mediaId);
    if (!facts) {
      facts = (async () => {
        const [clients, links] = await Promise.all([clientsOf(mediaId), activeLinksHolding(mediaId)]);
        return { clients, links: new Map(links.map((l) => [l.id, l.allowComment])) };
      })();
      this.#items.set(mediaId, facts);
    }
    return facts;
  }
}

/** Audiences whose decision needs the item's facts. */
export function needsFacts(row: Pick<LiveRow, 'audience' | 'mediaId'>): boolean {
  return row.mediaId !== null && ['item', 'owner', 'live-item', 'session'].includes(row.audience);
}

const staffMay = (p: LivePrincipal, permission: string) => p.kind === 'staff' && p.permissions.has(permission);

/** Whether the item's live sessions reach this principal (links: only those allowing comments). */
export function seesLive(p: LivePrincipal, facts: ItemFacts): boolean {
  if (p.kind === 'staff') return p.permissions.has('view:media');
  if (p.kind === 'client') return facts.clients.has(p.clientId);
  return facts.links.get(p.linkId) === true;
}

/**
 * The decision. `joined`: whether this stream has joined the row's live session (audience
 * `session`: the player state, presence, pointer and drawings go to participants only).
 */
export function mayReceive(p: LivePrincipal, row: LiveRow, facts: ItemFacts, joined: boolean): boolean {
  switch (row.audience) {
    case 'staff':
      // A link's activity is for staff who manage links and see what any link may hold.
      return staffMay(p, row.permission ?? 'view:media') && (row.permission !== 'share:media' || staffMay(p, 'view:media'));
    case 'item':
      if (p.kind === 'staff') return p.permissions.has('view:media');
      if (p.kind === 'client') return facts.clients.has(p.clientId);
      return facts.links.has(p.linkId);
    case 'owner':
      if (p.kind === 'staff') return p.permissions.has('view:media');
      if (p.kind === 'client') return row.clientUserId === p.clientUserId && facts.clients.has(p.clientId);
      return row.linkId === p.linkId && facts.links.has(p.linkId);
    case 'client':
      if (p.kind === 'staff') return p.permissions.has('view:media');
      return p.kind === 'client' && row.clientId === p.clientId;
    case 'link':
      if (p.kind === 'staff') return p.permissions.has('share:media') && p.permissions.has('view:media');
      return p.kind === 'link' && row.linkId === p.linkId;
    case 'live-item':
      return seesLive(p, facts);
    case 'session':
      return joined && seesLive(p, facts);
    case 'gallery':
      if (p.kind === 'staff') return p.permissions.has('view:media');
      if (p.kind === 'client') return facts.clients.has(p.clientId);
      return facts.links.has(p.linkId);
    default:
      return false;
  }
}
