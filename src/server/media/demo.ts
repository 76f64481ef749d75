// Demo media for a fresh install (DEMO_CONTENT): a few generated stills (sharp) and short
// clips that look like footage (ffmpeg, skipped when it is not on the PATH), run through the same
// derivative code as real uploads. Loaded by the start script under Node's type stripping,
// hence explicit .ts imports and no database handle of its own.
import fs from 'node:fs/promises';
import type { Database } from '../../db/client.ts';
import { galleries, galleryClients, galleryImages, gallerySets, media, mediaClients, mediaVersions, selectionLists } from '../../db/schema.ts';
import { eq } from 'drizzle-orm';
import { enqueueStills } from '../proofing/stills.ts';
import { makeImageDerivatives, makeVideoDerivatives, sharpLib } from './derivatives.ts';
import { generateDemoClip } from './ffmpeg.ts';
import { mediaFilePath, mediaFolder, mediaUrl, newStorageKey, originalVariant } from '../storage/paths.ts';
import { storage } from '../storage/index.ts';

interface DemoItem {
  title: string;
  tags: string[];
  stage: string | null;
  notes: string;
  featured: boolean;
  portfolio: boolean;
  assign: boolean;
}

interface DemoImage extends DemoItem {
  colours: [string, string, string];
}

interface DemoVideo extends DemoItem {
  /** The test pattern used only when ffmpeg lacks the filters for the footage look. */
  pattern: string;
  /** The footage look: two colours drifting under the title (issue 32). */
  colours: [string, string];
}

const IMAGES: DemoImage[] = [
  { title: 'Boardroom Interview Setup', tags: ['corporate', 'interview'], stage: 'completed', notes: 'Two-camera interview lighting for the annual report film.', featured: true, portfolio: true, assign: false, colours: ['#0f172a', '#1e3a8a', '#f59e0b'] },
  { title: 'Neon Alley Music Video Still', tags: ['music video', 'night'], stage: 'delivered', notes: 'Frame grab from the chorus sequence.', featured: true, portfolio: true, assign: false, colours: ['#1a0b2e', '#7e22ce', '#22d3ee'] },
  { title: 'Coffee Roastery Commercial Frame', tags: ['commercial', 'food'], stage: 'post-production', notes: 'Hero product shot, graded.', featured: false, portfolio: true, assign: true, colours: ['#1c1917', '#92400e', '#fde68a'] },
  { title: 'Harbour Documentary Location Scout', tags: ['documentary', 'location'], stage: 'pre-production', notes: 'Dawn light at the north pier; check tide times.', featured: false, portfolio: false, assign: true, colours: ['#082f49', '#0e7490', '#e2e8f0'] },
];

const VIDEOS: DemoVideo[] = [
  { title: 'Studio Showreel Teaser', tags: ['commercial', 'music video'], stage: 'delivered', notes: 'Ten-second cut for social.', featured: true, portfolio: true, assign: false, pattern: 'testsrc2', colours: ['#0b1026', '#c2410c'] },
  { title: 'Corporate Brand Film Rough Cut', tags: ['corporate'], stage: 'post-production', notes: 'First assembly for client review.', featured: false, portfolio: false, assign: true, pattern: 'smptebars', colours: ['#0f172a', '#1d4ed8'] },
  { title: 'Coastal Communities Documentary Trailer', tags: ['documentary'], stage: 'completed', notes: 'Festival trailer.', featured: false, portfolio: true, assign: false, pattern: 'rgbtestsrc', colours: ['#042f2e', '#f4c28a'] },
];

/**
 * A proofing round to try (issue 42): set stills of the documentary in two sets, shared with the
 * demo client, with a list to pick for. File names as a camera writes them; 3:2 and 2:3 frames.
 */
const GALLERY = {
  title: 'Harbour Documentary · Set Stills',
  list: { name: 'Pick 3 for the poster', minCount: 1, maxCount: 3 },
  sets: [
    { name: 'Dawn at the pier', stills: [['#082f49', '#0e7490', '#fde68a'], ['#0c4a6e', '#38bdf8', '#fef3c7'], ['#1e293b', '#0891b2', '#fbbf24'], ['#172554', '#0369a1', '#e0f2fe']] },
    { name: 'Portraits', stills: [['#1c1917', '#78350f', '#fcd34d'], ['#27272a', '#7c2d12', '#fed7aa'], ['#18181b', '#334155', '#f8fafc'], ['#292524', '#9a3412', '#fde68a']] },
  ] as { name: string; stills: [string, string, string][] }[],
};

/**
 * A generated picture filling its frame: no letterbox bars, which in a 16:9 card read as an
 * image that does not fit (issue 53).
 */
function still([bg, mid, accent]: [string, string, string], seed: number, w = 1280, h = 720): Buffer {
  const circles = Array.from({ length: 6 }, (_, i) => {
    const x = (seed * 173 + i * 271) % w;
    const y = (seed * 97 + i * 149) % h;
    const r = 60 + ((seed + i) * 37) % 180;
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="${accent}" fill-opacity="${0.08 + i * 0.03}"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${circles}
  </svg>`;
  return Buffer.from(svg);
}

type FileFacts = Omit<typeof media.$inferInsert, 'title' | 'tags' | 'projectStage' | 'notes' | 'isFeatured' | 'showInPortfolio'>;

async function insert(db: Database, item: DemoItem, row: FileFacts, clientId: number | null) {
  const [created] = await db
    .insert(media)
    .values({
      ...row,
      title: item.title,
      tags: item.tags,
      projectStage: item.stage,
      notes: item.notes,
      isFeatured: item.featured,
      showInPortfolio: item.portfolio,
      clientId: item.assign ? clientId : null,
    })
    .returning({ id: media.id });
  if (item.assign && clientId != null) await db.insert(mediaClients).values({ mediaId: created!.id, clientId });
}

async function prepareImage(item: Pick<DemoImage, 'title' | 'colours'>, seed: number, size: { w: number; h: number; filename?: string } = { w: 1280, h: 720 }): Promise<FileFacts> {
  const key = newStorageKey();
  await fs.mkdir(mediaFolder(key), { recursive: true });
  try {
    const variant = originalVariant('jpg');
    const original = mediaFilePath(key, variant);
    await (await sharpLib())(still(item.colours, seed, size.w, size.h)).jpeg({ quality: 85 }).toFile(original);
    const facts = await makeImageDerivatives(key, original, 'image/jpeg');
    const { size: bytes } = await fs.stat(original);
    const filename = size.filename ?? `${item.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.jpg`;
    await storage.publishItem(key);
    return { type: 'image', storageKey: key, url: mediaUrl(key, variant), filename, fileSize: bytes, mimeType: 'image/jpeg', ...facts };
  } catch (e) {
    await fs.rm(mediaFolder(key), { recursive: true, force: true });
    throw e;
  }
}

/** null when ffmpeg is missing (the clip is skipped). */
async function prepareVideo(item: DemoVideo): Promise<FileFacts | null> {
  const key = newStorageKey();
  await fs.mkdir(mediaFolder(key), { recursive: true });
  try {
    const variant = originalVariant('mp4');
    const original = mediaFilePath(key, variant);
    if (!(await generateDemoClip(original, { seconds: 3, width: 480, height: 270, look: { colours: item.colours, title: item.title }, fallbackPattern: item.pattern }))) {
      await fs.rm(mediaFolder(key), { recursive: true, force: true });
      return null;
    }
    const facts = await makeVideoDerivatives(key, { path: original, mimeType: 'video/mp4' }, null);
    const { size } = await fs.stat(original);
    const filename = `${item.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.mp4`;
    await storage.publishItem(key);
    return { type: 'video', storageKey: key, url: mediaUrl(key, variant), filename, fileSize: size, mimeType: 'video/mp4', webpUrl: null, ...facts };
  } catch (e) {
    await fs.rm(mediaFolder(key), { recursive: true, force: true });
    throw e;
  }
}

export async function seedDemoMedia(db: Database, clientId: number | null): Promise<void> {
  // Files are made concurrently; rows go in one by one, oldest first, so the list (newest
  // first) opens on the showreel. The gallery's stills are the oldest.
  const items: DemoItem[] = [...IMAGES, ...VIDEOS];
  const [facts, stills] = await Promise.all([
    Promise.all([...IMAGES.map((item, i) => prepareImage(item, i + 1)), ...VIDEOS.map((item) => prepareVideo(item))]),
    prepareGalleryStills(),
  ]);
  await insertGallery(db, stills, clientId);
  for (const [i, f] of facts.entries()) if (f) await insert(db, items[i]!, f, clientId);
}

function prepareGalleryStills(): Promise<FileFacts[][]> {
  let n = 0;
  return Promise.all(
    GALLERY.sets.map((set) =>
      Promise.all(
        set.stills.map((colours) => {
          n += 1;
          const portrait = n % 3 === 0;
          const filename = `DSC_${String(4100 + n * 7).padStart(4, '0')}.jpg`;
          return prepareImage({ title: filename, colours }, 20 + n, { w: portrait ? 800 : 1200, h: portrait ? 1200 : 800, filename });
        }),
      ),
    ),
  );
}

/** The gallery's stills (uploaded into it: not in the library), the gallery, its sets and list. */
async function insertGallery(db: Database, sets: FileFacts[][], clientId: number | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [gallery] = await tx.insert(galleries).values({ title: GALLERY.title, sortOrder: 'filename' }).returning({ id: galleries.id });
    const galleryId = gallery!.id;
    const versions: { mediaId: number; versionId: number }[] = [];
    let position = 0;
    for (const [i, stills] of sets.entries()) {
      const [set] = await tx.insert(gallerySets).values({ galleryId, name: GALLERY.sets[i]!.name, position: i }).returning({ id: gallerySets.id });
      for (const facts of stills) {
        const title = facts.filename!.replace(/\.jpg$/, '');
        // The gallery's own stills (issue 53): they live in the gallery, not in the library.
        const [row] = await tx.insert(media).values({ ...facts, title, tags: ['documentary', 'stills'], projectStage: 'post-production', notes: 'Set still for the proofing demo.', galleryId }).returning({ id: media.id });
        // The media_ai_version trigger made the row's v1.
        const [version] = await tx.select({ id: mediaVersions.id }).from(mediaVersions).where(eq(mediaVersions.storageKey, facts.storageKey));
        await tx.insert(galleryImages).values({ galleryId, mediaId: row!.id, setId: set!.id, position: position++ });
        versions.push({ mediaId: row!.id, versionId: version!.id });
      }
    }
    await tx.update(galleries).set({ coverMediaId: versions[0]!.mediaId }).where(eq(galleries.id, galleryId));
    await tx.insert(selectionLists).values({ galleryId, ...GALLERY.list });
    if (clientId != null) await tx.insert(galleryClients).values({ galleryId, clientId });
    // The gallery sizes are the job queue's, as for any gallery.
    await enqueueStills(tx, versions);
  });
}
