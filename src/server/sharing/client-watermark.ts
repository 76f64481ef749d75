// A client set to see only watermarked previews (issue 17): staff switch it on per client; the
// client's logins then play and download "Preview - {client name}" copies of every version of
// their media, and no clean file is served to them. Under the hood the client gets a share
// link row of its own (client_id set, no token ever given out), so previews are made, named
// (lp-{file key}) and queued exactly as for share links.
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clients, media, mediaVersions, shareLinks } from '../../db/schema.ts';
import { notFound } from '../http.ts';
import { generateSessionToken, sessionIdFromToken } from '../auth/tokens.ts';
import { linkPreviewVariant, mediaUrl, newFileKey, STORAGE_KEY_RE } from '../storage/paths.ts';
import type { Playback } from '../../shared/schemas/media.ts';
import type { ClientWatermark, ClientWatermarkInput } from '../../shared/schemas/clients.ts';
import { DEFAULT_WATERMARK_POSITION } from '../../shared/schemas/share.ts';
import type { LinkRow } from './links.ts';
import { assignedTo } from '../portal/assigned.ts';
import { enqueueAllVersions, previewStates, type PreviewState } from './watermark-jobs.ts';

type Executor = Pick<typeof db, 'select' | 'insert' | 'delete'>;

/** The client's watermark while it is switched on (its clean row, client-gate.ts, is not one). */
export async function clientWatermarkLink(clientId: number, tx: Pick<typeof db, 'select'> = db): Promise<LinkRow | null> {
  const [row] = await tx
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.clientId, clientId), eq(shareLinks.watermark, true), isNull(shareLinks.revokedAt)))
    .orderBy(desc(shareLinks.id))
    .limit(1);
  return row ?? null;
}

export async function assignedMediaIds(tx: Pick<typeof db, 'select'>, clientId: number): Promise<number[]> {
  const rows = await tx.select({ id: media.id }).from(media).where(assignedTo(clientId, tx));
  return rows.map((r) => r.id);
}

function settingsOf(link: LinkRow | null): ClientWatermark {
  return link
    ? { watermark: true, text: link.watermarkText, position: link.watermarkPosition, opacity: link.watermarkOpacity }
    : { watermark: false, text: '', position: DEFAULT_WATERMARK_POSITION, opacity: 60 };
}

async function findClient(clientId: number) {
  const [client] = await db.select({ id: clients.id, name: clients.name }).from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) throw notFound('Client not found');
  return client;
}

export async function getClientWatermark(clientId: number): Promise<ClientWatermark> {
  await findClient(clientId);
  return settingsOf(await clientWatermarkLink(clientId));
}

/**
 * Switches the client's watermark on (previews of everything assigned are queued), changes how
 * it looks (every preview is made again), or switches it off.
 */
export async function setClientWatermark(clientId: number, input: ClientWatermarkInput, staffUserId: string): Promise<ClientWatermark> {
  const client = await findClient(clientId);
  const look = { watermarkText: input.text, watermarkPosition: input.position, watermarkOpacity: input.opacity };
  await db.transaction(async (tx) => {
    const current = await clientWatermarkLink(clientId, tx);
    if (!input.watermark) {
      if (current) await tx.update(shareLinks).set({ revokedAt: new Date() }).where(and(eq(shareLinks.clientId, clientId), eq(shareLinks.watermark, true), isNull(shareLinks.revokedAt)));
      return;
    }
    if (current) {
      const same = current.watermarkText === look.watermarkText && current.watermarkPosition === look.watermarkPosition && current.watermarkOpacity === look.watermarkOpacity;
      if (same) return;
      await tx.update(shareLinks).set(look).where(eq(shareLinks.id, current.id));
      await enqueueAllVersions(tx, current, await assignedMediaIds(tx, clientId));
      return;
    }
    const [link] = await tx
      .insert(shareLinks)
      .values({
        // A token nobody holds: the row is never opened through /s/.
        tokenHash: sessionIdFromToken(generateSessionToken()),
        name: client.name,
        watermark: true,
        download: 'preview',
        clientId,
        createdBy: staffUserId,
        fileKey: newFileKey(),
        ...look,
      })
      .returning();
    await enqueueAllVersions(tx, link!, await assignedMediaIds(tx, clientId));
  });
  return settingsOf(await clientWatermarkLink(clientId));
}

/**
 * An item was just assigned to the client: the previews its own rows need, its watermark's
 * and its gate's (client-gate.ts).
 */
export async function enqueueClientPreviews(tx: Executor, clientId: number, mediaId: number): Promise<void> {
  const rows = await tx.select().from(shareLinks).where(and(eq(shareLinks.clientId, clientId), isNull(shareLinks.revokedAt)));
  for (const link of rows) await enqueueAllVersions(tx, link, [mediaId]);
}

/** The file fields of an item or version a client sees (a watermark or a closed gate replaces some). */
export interface FileFields extends Playback {
  url: string;
  posterUrl: string | null;
  thumbnailUrl: string | null;
  thumbnailWebpUrl?: string | null;
  webpUrl?: string | null;
}

export function storageKeyOf(url: string): string | null {
  const key = url.split('/')[2] ?? '';
  return STORAGE_KEY_RE.test(key) ? key : null;
}

function watermarked<T extends FileFields>(row: T, type: 'image' | 'video', link: LinkRow, state: PreviewState | undefined): T {
  const key = storageKeyOf(row.url);
  if (!key) return row;
  const file = mediaUrl(key, linkPreviewVariant(link, type));
  const ready = state?.jobId ? `${file}?v=${state.jobId}` : null;
  // Nothing clean: no proxies, no playlist of them (issue 33: a single watermarked size).
  const shared = { ...row, posterUrl: null, renditions: [], spriteUrl: null, processingError: null, streamUrl: null };
  if (type === 'image') {
    return { ...shared, url: ready ?? file, thumbnailUrl: ready, ...('thumbnailWebpUrl' in row ? { thumbnailWebpUrl: ready } : {}), ...('webpUrl' in row ? { webpUrl: ready } : {}) };
  }
  return {
    ...shared,
    // Downloads take `url`: the preview, never the original.
    url: ready ?? file,
    thumbnailUrl: null,
    ...('thumbnailWebpUrl' in row ? { thumbnailWebpUrl: null } : {}),
    ...('webpUrl' in row ? { webpUrl: null } : {}),
    playbackUrl: ready,
    processingStatus: ready ? 'ready' : 'processing',
    processingProgress: ready ? 100 : 0,
  };
}

/**
 * Items or versions as a client sees them: unchanged, or with every file replaced by the
 * client's preview when its watermark is on.
 */
export async function forClient<T extends FileFields>(clientId: number, rows: T[], typeOf: (row: T) => 'image' | 'video'): Promise<T[]> {
  const link = await clientWatermarkLink(clientId);
  if (!link || !rows.length) return rows;
  const keys = rows.map((r) => storageKeyOf(r.url)).filter((k): k is string => !!k);
  const versions = keys.length ? await db.select({ id: mediaVersions.id, storageKey: mediaVersions.storageKey }).from(mediaVersions).where(inArray(mediaVersions.storageKey, keys)) : [];
  const states = await previewStates(link.id, versions.map((v) => v.id));
  return rows.map((r) => {
    const version = versions.find((v) => v.storageKey === storageKeyOf(r.url));
    return watermarked(r, typeOf(r), link, version ? states.get(version.id) : undefined);
  });
}
