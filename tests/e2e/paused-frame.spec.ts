// The frame you paused on (issue 51), in every player: footage numbered in its picture
// (tests/helpers/frame-fixture.ts) is played and paused again and again with the player's own
// control, and after each pause the picture must be the frame painted as it stopped (read from
// the page's requestVideoFrameCallback, as a viewer saw it), the video's time must stand at that
// frame's start (its middle in the compare view), and the note's time field, a note sent there,
// a live session's shared state and a follower's picture must name that frame. Before the fix
// Chromium left the picture and the time a frame apart in about a third of the pauses (picture
// 117, time 4.6687 s: frame 116).
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { test, expect, ADMIN, oncePerServer } from './fixtures.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';
import { createClientWithPortalLogin, type ClientLogin } from '../helpers/portal-fixtures.ts';
import { staffSession } from '../helpers/http.ts';
import type { TestServer } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { BITS, readShownFrame, type FrameSourceSpec } from '../helpers/frame-fixture.ts';
import { copyAsNewVersion, signInClient, uploadNumbered } from './review-helpers.ts';

const FPS = 25;
// Two sizes (540p and 360p), so the review players stream it (hls.js) and the others play a file.
const SOURCE: FrameSourceSpec = { rate: '25', seconds: 8, video: 'h264', audio: { codec: 'aac', sampleRate: 48000 }, container: 'mp4', size: '960x540' };
/** How long each play runs before the pause (s): uneven, so the pauses fall at every phase of a frame. */
const RUNS = [0.35, 0.61, 0.47, 0.82, 0.39, 0.73, 0.54, 0.66];

const fixture: { mediaId: number; slug: string; client: ClientLogin; linkPath: string } = { mediaId: 0, slug: '', client: null!, linkPath: '' };

const setUp = oncePerServer(async (server) => {
  fixture.client = await createClientWithPortalLogin(server, 'Paused Frame Co');
  fixture.mediaId = await uploadNumbered(server, SOURCE, 'Paused Cut', { clientId: String(fixture.client.clientId), showInPortfolio: 'true' });
  // A second version for the compare view (a copy of the first: the same frames on both sides).
  await copyAsNewVersion(server, fixture.mediaId);
  fixture.slug = String((await server.sql.execute({ sql: 'SELECT slug FROM media WHERE id = ?', args: [fixture.mediaId] })).rows[0]!.slug);
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const link = await staff.json('POST', '/api/share-links', { name: 'Paused link', mediaIds: [fixture.mediaId], allowComment: true });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  fixture.linkPath = new URL(link.body.url).pathname;
});

/**
 * Records, in every page of `target`, what each video paints (requestVideoFrameCallback's media
 * time) and its pauses and seeks, by test id: the frame a pause left on screen is the last one
 * painted before the seek that follows it.
 */
async function recordPaint(target: Page | BrowserContext) {
  await target.addInitScript(() => {
    type Entry = { kind: 'frame' | 'pause' | 'seeking'; t: number };
    const w = window as unknown as { __paint: Record<string, Entry[]> };
    w.__paint = {};
    const followed = new WeakSet<HTMLVideoElement>();
    const log = (v: HTMLVideoElement, kind: Entry['kind'], t: number) => (w.__paint[v.dataset.testid ?? '?'] ??= []).push({ kind, t });
    const follow = (v: HTMLVideoElement) => {
      if (followed.has(v)) return;
      followed.add(v);
      const onFrame: VideoFrameRequestCallback = (_now, meta) => {
        log(v, 'frame', meta.mediaTime);
        v.requestVideoFrameCallback(onFrame);
      };
      v.requestVideoFrameCallback(onFrame);
    };
    document.addEventListener('play', (e) => e.target instanceof HTMLVideoElement && follow(e.target), true);
    document.addEventListener('pause', (e) => e.target instanceof HTMLVideoElement && log(e.target, 'pause', e.target.currentTime), true);
    document.addEventListener('seeking', (e) => e.target instanceof HTMLVideoElement && log(e.target, 'seeking', e.target.currentTime), true);
  });
}

/**
 * A click on the player's control as the page receives it, at once: Playwright's own click first
 * waits for the control to stand still over animation frames, which on a busy machine let a
 * 0.4 s run go on for seconds.
 */
const press = (control: Locator) => control.evaluate((el: HTMLElement) => el.click());

const frameOf = (seconds: number) => Math.floor(seconds * FPS + 0.05);
/** Where a settled pause puts the time: the frame's start plus 0.1 ms, as a frame step seeks (docs/review.md). */
const frameStart = (frame: number) => frame / FPS + 0.0001;

interface Seen {
  paused: boolean;
  seeking: boolean;
  time: number;
  /** The number on the picture now. */
  picture: number | null;
  /** The frame painted as the last pause stopped it. */
  pausedOn: number | null;
}

/** What the video `testId` shows and says now, and the frame its last pause left on screen. */
async function seen(page: Page, testId: string): Promise<Seen> {
  const selector = `[data-testid="${testId}"]`;
  const picture = await page.evaluate(readShownFrame, { selector, bits: BITS });
  const state = await page.evaluate(
    ([sel, id]) => {
      const v = document.querySelector<HTMLVideoElement>(sel)!;
      const log = (window as unknown as { __paint: Record<string, { kind: string; t: number }[]> }).__paint[id] ?? [];
      const pause = log.findLastIndex((e) => e.kind === 'pause');
      const seek = log.findIndex((e, i) => i > pause && e.kind === 'seeking');
      const before = log.slice(0, seek < 0 ? log.length : seek).findLast((e) => e.kind === 'frame');
      return { paused: v.paused, seeking: v.seeking, time: v.currentTime, pausedOn: pause < 0 || !before ? null : before.t };
    },
    [selector, testId] as const,
  );
  return { ...state, picture, pausedOn: state.pausedOn === null ? null : frameOf(state.pausedOn) };
}

/** A player as the loop drives it. */
interface Opened {
  page: Page;
  /** The video's test id. */
  video: string;
  /** What plays and pauses it (the player's own button, or the picture): clicked at once, see press(). */
  toggle: Locator;
  /**
   * The time a settled pause on `frame` stands at (frameStart unless said). Until the time is
   * there the settling seek is still to come, and a picture read now could be one it replaces.
   */
  settlesAt?: (frame: number) => number;
  /** The frame the note's time field names (players with notes). */
  field?: () => Promise<number | null>;
  /** Sends a note from the paused frame; answers the frame it was stored at. */
  note?: (text: string) => Promise<number>;
  /** Other screens that must show `frame` too (a follower, the compare view's other side). */
  alsoOn?: (frame: number) => Promise<void>;
  close?: () => Promise<void>;
}

/** The frame a stored note names (timestamp_ms read as the app reads it). */
async function storedFrame(server: TestServer, table: 'timeline_notes' | 'share_comments', text: string): Promise<number> {
  const col = table === 'timeline_notes' ? 'note_text' : 'text';
  const row = await until(`the note "${text}" stored`, async () => (await server.sql.execute({ sql: `SELECT timestamp_ms FROM ${table} WHERE ${col} = ?`, args: [text] })).rows[0]);
  return frameOf(Number(row.timestamp_ms) / 1000);
}

const fieldFrame = (field: Locator) => async () => {
  const text = await field.inputValue();
  return text.trim() === '' || !Number.isFinite(Number(text)) ? null : frameOf(Number(text));
};

/** Waits until the video has its metadata (a watch page loads no more before play), or `state`. */
async function videoReady(page: Page, testId: string, state = 1) {
  await until(`${testId} ready`, () => page.evaluate(([s, n]) => (document.querySelector<HTMLVideoElement>(s)?.readyState ?? 0) >= n, [`[data-testid="${testId}"]`, state] as const));
}

/** Signs staff in on the item's dialog (or its compare view). */
async function adminDialog(page: Page, query = '') {
  await recordPaint(page);
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}${query}`);
}

/** A screen's note form: its time field, and a note sent from the paused frame (its button `add`). */
function noteForm(server: TestServer, table: 'timeline_notes' | 'share_comments', field: Locator, form: Locator, add: string): Pick<Opened, 'field' | 'note'> {
  return {
    field: fieldFrame(field),
    note: async (text) => {
      await form.getByRole('textbox', { name: 'Note', exact: true }).fill(text);
      await form.getByRole('button', { name: add }).click();
      return storedFrame(server, table, text);
    },
  };
}

/** The staff note form of the admin dialog. */
const staffNotes = (page: Page, server: TestServer) =>
  noteForm(server, 'timeline_notes', page.getByRole('dialog', { name: 'Paused Cut' }).getByLabel('Time (seconds)'), page.getByTestId('staff-note-form'), 'Add note');

const PLAYERS: { name: string; open: (page: Page, server: TestServer, browser: Browser) => Promise<Opened> }[] = [
  {
    name: 'admin dialog',
    open: async (page, server) => {
      await adminDialog(page);
      const dialog = page.getByRole('dialog', { name: 'Paused Cut' });
      return { page, video: 'detail-video', toggle: dialog.getByTestId('review-play'), ...staffNotes(page, server) };
    },
  },
  {
    name: 'portal dialog',
    open: async (page, server) => {
      await recordPaint(page);
      await signInClient(page, fixture.client);
      await page.getByRole('button', { name: 'Open Paused Cut' }).click();
      const dialog = page.getByRole('dialog', { name: 'Paused Cut' });
      await dialog.getByRole('tab', { name: 'Timeline' }).click();
      return { page, video: 'portal-video', toggle: dialog.getByTestId('review-play'), ...noteForm(server, 'timeline_notes', dialog.getByLabel('Timestamp (seconds)'), dialog, 'Add Note') };
    },
  },
  {
    name: 'share page',
    open: async (page, server) => {
      await recordPaint(page);
      await page.goto(fixture.linkPath);
      await islandsReady(page);
      await page.getByLabel('Your name').fill('Guest Gill');
      const share = page.getByTestId('share-item');
      return { page, video: 'share-video', toggle: share.getByTestId('review-play'), ...noteForm(server, 'share_comments', share.getByLabel('Time (seconds)'), share, 'Add note') };
    },
  },
  {
    name: 'watch page',
    open: async (page) => {
      await recordPaint(page);
      await page.goto(`/portfolio/${fixture.slug}`);
      await page.locator('astro-island[component-url*="WatchPlayer"]:not([ssr])').waitFor({ state: 'attached' });
      // The public player plays and pauses on a click on the picture; its clock shows no frames.
      return { page, video: 'watch-video', toggle: page.getByTestId('watch-video') };
    },
  },
  {
    name: 'compare view',
    open: async (page) => {
      await adminDialog(page, '&compare=1,2');
      const compare = page.getByRole('dialog', { name: 'Compare versions: Paused Cut' });
      await videoReady(page, 'compare-right', 2);
      return {
        page,
        video: 'compare-left',
        toggle: compare.getByTestId('compare-play'),
        // Both sides placed in the frame's middle, as its steps place them.
        settlesAt: (frame) => (frame + 0.5) / FPS,
        // Its time, shown as mm:ss.ff, names the frame of both sides.
        field: async () => {
          const [, mm, ss, ff] = /^(\d+):(\d+)\.(\d+)$/.exec((await compare.getByTestId('compare-time').textContent()) ?? '') ?? [];
          return mm === undefined ? null : (Number(mm) * 60 + Number(ss)) * FPS + Number(ff);
        },
        alsoOn: async (frame) => {
          await until(`the right side on frame ${frame}`, async () => (await page.evaluate(readShownFrame, { selector: '[data-testid="compare-right"]', bits: BITS })) === frame, 10_000);
        },
      };
    },
  },
  {
    name: 'live session (presenter and a following client)',
    open: async (page, server, browser) => {
      await adminDialog(page);
      const dialog = page.getByRole('dialog', { name: 'Paused Cut' });
      await videoReady(page, 'detail-video');
      await dialog.getByRole('button', { name: 'Review live' }).click();
      await expect(dialog.getByTestId('live-status')).toHaveText('Live review: you are presenting');
      const clientContext = await browser.newContext();
      const client = await clientContext.newPage();
      await signInClient(client, fixture.client);
      await client.getByTestId('portal-live-banner').getByRole('button', { name: 'Join live review' }).click();
      await expect(client.getByRole('dialog', { name: 'Paused Cut' }).getByTestId('live-status')).toHaveText(/Live review: following/);
      const sharedState = async () => {
        const row = (await server.sql.execute({ sql: 'SELECT state FROM live_sessions WHERE media_id = ? AND ended_at IS NULL', args: [fixture.mediaId] })).rows[0];
        return row ? (JSON.parse(String(row.state)) as { playing: boolean; frame: number }) : null;
      };
      return {
        page,
        video: 'detail-video',
        toggle: dialog.getByTestId('review-play'),
        ...staffNotes(page, server),
        alsoOn: async (frame) => {
          await until(`the shared state paused on frame ${frame}`, async () => {
            const s = await sharedState();
            return s !== null && !s.playing && s.frame === frame;
          }, 10_000);
          await until(`the client's picture on frame ${frame}`, async () => (await client.evaluate(readShownFrame, { selector: '[data-testid="portal-video"]', bits: BITS })) === frame, 10_000);
        },
        close: async () => {
          await dialog.getByRole('button', { name: 'End live review' }).click();
          await clientContext.close();
        },
      };
    },
  },
];

for (const player of PLAYERS) {
  test(`${player.name}: after each pause the picture, the time${player.name === 'watch page' ? '' : ', the time field'} and what is recorded name the frame painted`, async ({ page, server, browser }) => {
    test.setTimeout(240_000);
    await setUp({ server });
    const o = await player.open(page, server, browser);
    try {
      await videoReady(o.page, o.video);
      const video = o.page.getByTestId(o.video);
      const settlesAt = o.settlesAt ?? frameStart;
      for (const [i, run] of RUNS.entries()) {
        // Back to the start while a run would reach the end (the clip is short).
        const from = await video.evaluate(
          (v: HTMLVideoElement) =>
            new Promise<number>((done) => {
              if (v.currentTime < v.duration - 2) return done(v.currentTime);
              v.addEventListener('seeked', () => done(v.currentTime), { once: true });
              v.currentTime = 0;
            }),
        );
        await press(o.toggle);
        await until(`pause ${i}: playing ${run} s`, () => video.evaluate((v: HTMLVideoElement, to) => !v.paused && v.currentTime >= to, from + run));
        await press(o.toggle);
        // Settled: paused, no seek under way, the picture the one painted as it stopped, and the
        // time where a pause on that frame settles. Before the fix no pause seeked there, and about a third
        // left the picture and the time a frame apart.
        let last: Seen | null = null;
        const frame = await until(
          `pause ${i}: the picture, the frame painted and the time on one frame`,
          async () => {
            last = await seen(o.page, o.video);
            const s = last;
            return s.paused && !s.seeking && s.picture !== null && s.picture === s.pausedOn && Math.abs(s.time - settlesAt(s.picture)) < 0.0002 ? { frame: s.picture } : null;
          },
          10_000,
        ).then(
          (r) => r.frame,
          (e: Error) => {
            throw new Error(`${e.message}; last seen ${JSON.stringify(last)} (frame of the time ${last ? frameOf(last.time) : '?'})`);
          },
        );
        if (o.field) {
          const field = o.field;
          await until(`pause ${i}: the time field on frame ${frame}`, async () => (await field()) === frame, 10_000).catch(async (e: Error) => {
            throw new Error(`${e.message}; it names frame ${await field()}`);
          });
        }
        if (o.note) expect(await o.note(`${player.name}: pause ${i}`), `pause ${i}: the note's frame`).toBe(frame);
        await o.alsoOn?.(frame);
        // Still there once everything is done (no later seek moved it).
        expect(await o.page.evaluate(readShownFrame, { selector: `[data-testid="${o.video}"]`, bits: BITS }), `pause ${i}: the picture stays`).toBe(frame);
      }
    } finally {
      await o.close?.();
    }
  });
}
