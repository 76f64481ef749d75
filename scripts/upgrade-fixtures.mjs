#!/usr/bin/env node
// `npm run fixtures:upgrade`: one small library (database and media files) per earlier schema
// state, for the upgrade tests (tests/api/upgrade-fixtures.test.ts, issue 43). For every
// migration but the newest, the database is made by the real migrations up to and including
// that one, then filled with the same library: staff and client logins, roles, clients, an image
// and a video with their files, feedback, notes and replies, settings, share links,
// notifications … each row in the columns that state has. The fixtures are committed, so a
// later change to this script cannot rewrite what an earlier state held; run it when a
// migration lands (tests/unit/upgrade-fixtures-present.test.ts fails until then).
//   node scripts/upgrade-fixtures.mjs           adds the missing fixtures
//   node scripts/upgrade-fixtures.mjs --force   makes them all again
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MIGRATIONS = path.join(root, 'src/db/migrations');
export const FIXTURES = path.join(root, 'tests/fixtures/upgrade');

// Logins the upgrade test signs in with (fixture.json repeats them).
const STAFF = { username: 'upgrade.admin', password: 'upgrade-admin-pass-1' };
const EDITOR = { username: 'upgrade.editor', password: 'upgrade-editor-pass-1' };
const PORTAL = { username: 'harbour.producer', password: 'harbour-portal-pass-1' };

const ADMIN_ID = '0a6f1c2e-43aa-4c3e-9f00-000000000001';
const EDITOR_ID = '0a6f1c2e-43aa-4c3e-9f00-000000000002';
const VIDEO_KEY = 'a43a43a43a43a43a43a43a43a43a4301';
const IMAGE_KEY = 'a43a43a43a43a43a43a43a43a43a4302';
// Fixed times (ms), so every state holds the same values: 1 Sep 2026 onwards.
const T = (minutes) => 1_788_220_800_000 + minutes * 60_000;
const FAR = 4_102_444_800_000; // 2100: nothing in the library expires while the fixtures are kept

/** The media files, made once per run with ffmpeg (bit-exact, so a remake gives the same bytes). */
function makeFiles(dir) {
  const ff = (args) => {
    const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  };
  const video = path.join(dir, 'original.mp4');
  // One second of 160x90 H.264 with AAC: plays in a browser, small enough to commit 20 times.
  ff(['-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=24:duration=1', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '24k', '-shortest', '-movflags', '+faststart', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1', video]);
  const poster = path.join(dir, 'poster.jpg');
  ff(['-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=1:duration=1', '-frames:v', '1', '-q:v', '8', '-fflags', '+bitexact', '-flags:v', '+bitexact', poster]);
  const image = path.join(dir, 'original.png');
  ff(['-f', 'lavfi', '-i', 'smptebars=size=96x54:rate=1:duration=1', '-frames:v', '1', '-fflags', '+bitexact', '-flags:v', '+bitexact', image]);
  const thumb = path.join(dir, 'thumb.jpg');
  ff(['-i', image, '-vf', 'scale=48:28', '-q:v', '8', '-fflags', '+bitexact', '-flags:v', '+bitexact', thumb]);
  return {
    [VIDEO_KEY]: { 'original.mp4': fs.readFileSync(video), 'poster.jpg': fs.readFileSync(poster) },
    [IMAGE_KEY]: { 'original.png': fs.readFileSync(image), 'thumb.jpg': fs.readFileSync(thumb) },
  };
}

/**
 * The library, in insert order. Each step names a table and a row; only the columns the state's
 * table has are written (a step whose table does not exist yet is skipped). `update` steps change
 * rows a trigger made (a media row's first version). A NOT NULL column without a default that no
 * step fills stops the script naming it: add a value here when a migration adds one.
 */
function library({ adminHash, editorHash, portalHash, files }) {
  const size = (key, name) => files[key][name].length;
  return [
    { table: 'users', row: { id: ADMIN_ID, username: STAFF.username, email: 'admin@upgrade.test', password_hash: adminHash, forename: 'Ada', surname: 'Admin', display_name: 'Ada Admin', is_active: 1, created_at: T(0), notify_mode: 'immediately' } },
    { table: 'users', row: { id: EDITOR_ID, username: EDITOR.username, email: 'editor@upgrade.test', password_hash: editorHash, forename: 'Eddie', surname: 'Editor', display_name: 'Eddie Editor', is_active: 1, created_at: T(1), notify_mode: 'digest' } },
    { table: 'roles', row: { id: 1, name: 'Admin', description: 'Full access to every part of the studio', is_protected: 0, created_at: T(0) } },
    { table: 'roles', row: { id: 10, name: 'Colourist', description: 'Grades and reviews', is_protected: 0, created_at: T(2) } },
    { table: 'permissions', row: { id: 100, name: 'grade:media', description: 'A custom permission', created_at: T(2) } },
    { table: 'role_permissions', row: { role_id: 10, permission_id: 100 } },
    { table: 'user_roles', row: { user_id: ADMIN_ID, role_id: 1 } },
    { table: 'user_roles', row: { user_id: EDITOR_ID, role_id: 10 } },
    { table: 'clients', row: { id: 1, name: 'Harbour & Co', email: 'office@harbour.test', company: 'Harbour & Co Films Ltd', phone: '+44 20 7946 0000', notes: 'Since 2019', is_active: 1, created_by: ADMIN_ID, created_at: T(3), updated_at: T(3), downloads_after_approval: 1 } },
    { table: 'clients', row: { id: 2, name: 'Quay Events', email: 'hello@quay.test', company: '', phone: '', notes: '', is_active: 0, created_by: EDITOR_ID, created_at: T(4), updated_at: T(5) } },
    { table: 'client_users', row: { id: 1, client_id: 1, username: PORTAL.username, email: 'producer@harbour.test', password_hash: portalHash, is_active: 1, created_at: T(6), last_login_at: T(60), notify_mode: 'digest' } },
    { table: 'media', row: { id: 1, title: 'Harbour launch film', type: 'video', storage_key: VIDEO_KEY, url: `/media/${VIDEO_KEY}/original.mp4`, poster_url: `/media/${VIDEO_KEY}/poster.jpg`, filename: 'harbour-launch.mp4', file_size: size(VIDEO_KEY, 'original.mp4'), mime_type: 'video/mp4', width: 160, height: 90, duration_seconds: 1, is_featured: 1, show_in_portfolio: 1, tags: '["launch","harbour"]', project_stage: 'Editing', notes: 'Cut 3', client_id: 1, uploaded_by: ADMIN_ID, created_at: T(10), uploaded_at: T(10), processing_status: 'queued', processing_progress: 0, slug: 'harbour-launch-film' } },
    { table: 'media', row: { id: 2, title: 'Set photograph', type: 'image', storage_key: IMAGE_KEY, url: `/media/${IMAGE_KEY}/original.png`, thumbnail_url: `/media/${IMAGE_KEY}/thumb.jpg`, filename: 'set.png', file_size: size(IMAGE_KEY, 'original.png'), mime_type: 'image/png', width: 96, height: 54, is_featured: 0, show_in_portfolio: 0, tags: '[]', client_id: null, uploaded_by: EDITOR_ID, created_at: T(11), uploaded_at: T(11) } },
    { update: 'media_versions', where: { media_id: 1, number: 1 }, set: { approval_status: 'changes_requested', approval_note: 'Warmer grade please', approval_at: T(40) } },
    { table: 'media_slug_history', row: { slug: 'harbour-film', media_id: 1, created_at: T(12) } },
    { table: 'media_clients', row: { id: 1, media_id: 1, client_id: 1, created_at: T(13) } },
    { table: 'media_clients', row: { id: 2, media_id: 2, client_id: 1, created_at: T(13) } },
    { table: 'media_clients', row: { id: 3, media_id: 1, client_id: 2, created_at: T(14) } },
    { table: 'client_feedback', row: { id: 1, media_id: 1, client_user_id: 1, feedback_text: 'Lovely — a touch warmer?', rating: 4, created_at: T(20) } },
    { table: 'timeline_notes', row: { id: 1, media_id: 1, client_user_id: 1, timestamp_seconds: 0, timestamp_ms: 0, note_text: 'Logo too early', created_at: T(21), resolved_at: T(30), resolved_by: ADMIN_ID } },
    { table: 'timeline_notes', row: { id: 2, media_id: 1, client_user_id: 1, timestamp_seconds: 1, timestamp_ms: 1000, note_text: 'Music fades late', created_at: T(22) } },
    { table: 'media_replies', row: { id: 1, feedback_id: 1, staff_user_id: ADMIN_ID, author_name: 'Ada Admin', by_staff: 1, reply_text: 'Will do', created_at: T(23) } },
    { table: 'media_replies', row: { id: 2, timeline_note_id: 2, client_user_id: 1, author_name: 'Harbour & Co', by_staff: 0, reply_text: 'Or earlier', created_at: T(24) } },
    { table: 'enquiries', row: { id: 1, first_name: 'Sam', last_name: 'Quay', email: 'sam@quay.test', project_type: 'Event', message: 'A wedding in May', status: 'new', created_at: T(25) } },
    { table: 'enquiries', row: { id: 2, first_name: 'Jo', last_name: 'Pier', email: 'jo@pier.test', project_type: '', message: 'Archived one', status: 'archived', created_at: T(26) } },
    { table: 'website_settings', row: { id: 1, section: 'hero', background_image_id: 2, contact_email: 'hero@harbour.test', updated_by: ADMIN_ID, updated_at: T(27) } },
    { table: 'branding_settings', row: { id: 1, company_name: 'Harbour & Co Films', show_company_text: 1, logo_light_image_id: 2, updated_by: ADMIN_ID, updated_at: T(27), featured_limit: 6, portfolio_categories: '["Launch","Events"]' } },
    { table: 'seo_settings', row: { id: 1, meta_title: 'Harbour & Co | Films by the sea', meta_description: 'Films for brands by the sea', business_name: 'Harbour & Co Films', business_type: 'VideoProduction', address_locality: 'Whitby', address_country: 'GB', services: '["Films"]', faqs: '[]', enable_structured_data: 1, enable_open_graph: 1, enable_twitter_cards: 1, robots_directive: 'index, follow', updated_by: ADMIN_ID, updated_at: T(27) } },
    { table: 'contact_info', row: { id: 1, contact_email: 'office@harbour.test', contact_phone: '+44 1947 000000', contact_address: '1 Quay Street, Whitby', instagram_url: 'https://instagram.com/harbourco', updated_by: ADMIN_ID, updated_at: T(27) } },
    { table: 'site_state', row: { id: 1, version: 7 } },
    { table: 'backup_runs', row: { id: 1, started_at: T(50), finished_at: T(51), ok: 1, trigger: 'schedule', snapshot: '2026-09-01T0050', files: 4, bytes: 123456, new_files: 4 } },
    { table: 'jobs', row: { id: 1, kind: 'transcode', media_id: 1, status: 'failed', attempts: 3, max_attempts: 3, run_after: 0, progress: 0, last_error: 'ffmpeg failed (exit 1)', created_at: T(15), finished_at: T(16) } },
    { table: 'share_links', row: { id: 1, token_hash: createHash('sha256').update('upgrade-share-token').digest('hex'), name: 'For the agency', allow_comment: 1, allow_approve: 0, download: 'preview', watermark: 0, watermark_opacity: 40, created_by: ADMIN_ID, created_at: T(31), client_id: 1, file_key: 'c0ffee00c0ffee00c0ffee00' } },
    { table: 'share_link_items', row: { link_id: 1, media_id: 1, position: 0 } },
    { table: 'share_link_items', row: { link_id: 1, media_id: 2, position: 1 } },
    { table: 'share_visits', row: { id: 1, link_id: 1, guest_name: 'Agency Al', created_at: T(32), expires_at: FAR, last_open_at: T(33) } },
    { table: 'share_comments', row: { id: 1, link_id: 1, media_id: 1, guest_name: 'Agency Al', kind: 'note', timestamp_seconds: 1, timestamp_ms: 1000, text: 'Nice ending', created_at: T(34) } },
    { table: 'share_access_log', row: { id: 1, link_id: 1, media_id: 1, action: 'view', guest_name: 'Agency Al', created_at: T(33) } },
    { table: 'notification_events', row: { id: 1, kind: 'feedback', media_id: 1, client_id: 1, actor: 'Harbour & Co', summary: 'New feedback on Harbour launch film', path: '/admin/media?item=1', audience: 'staff', created_at: T(20) } },
    { table: 'notification_outbox', row: { id: 1, event_id: 1, recipient_kind: 'staff', recipient_id: ADMIN_ID, recipient_address: 'admin@upgrade.test', subject: 'New feedback', body: 'Harbour & Co left feedback.', status: 'sent', attempts: 1, created_at: T(20), sent_at: T(21) } },
  ];
}

async function columnsOf(c, table) {
  const rows = (await c.execute(`PRAGMA table_info("${table}")`)).rows;
  return rows.map((r) => ({ name: String(r.name), required: Number(r.notnull) === 1 && r.dflt_value === null && Number(r.pk) === 0 }));
}

async function fill(c, steps, tag) {
  for (const step of steps) {
    const table = step.table ?? step.update;
    const cols = await columnsOf(c, table);
    if (!cols.length) continue;
    const has = new Set(cols.map((col) => col.name));
    if (step.update) {
      const set = Object.entries(step.set).filter(([k]) => has.has(k));
      if (!set.length) continue;
      const where = Object.entries(step.where);
      await c.execute({ sql: `UPDATE "${table}" SET ${set.map(([k]) => `"${k}" = ?`).join(', ')} WHERE ${where.map(([k]) => `"${k}" = ?`).join(' AND ')}`, args: [...set.map(([, v]) => v), ...where.map(([, v]) => v)] });
      continue;
    }
    const missing = cols.filter((col) => col.required && !(col.name in step.row));
    if (missing.length) throw new Error(`${tag}: ${table}.${missing.map((m) => m.name).join(', ')} needs a value in scripts/upgrade-fixtures.mjs`);
    const entries = Object.entries(step.row).filter(([k]) => has.has(k));
    // Rows the migrations or the seed of that state already made (settings, site_state) are replaced.
    await c.execute({ sql: `INSERT OR REPLACE INTO "${table}" (${entries.map(([k]) => `"${k}"`).join(', ')}) VALUES (${entries.map(() => '?').join(', ')})`, args: entries.map(([, v]) => v) });
  }
}

/** A copy of the migrations folder holding the first `count` migrations. */
function migrationsUpTo(journal, count, dir) {
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const entries = journal.entries.slice(0, count);
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) fs.copyFileSync(path.join(MIGRATIONS, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
}

async function makeFixture(journal, count, secrets) {
  const tag = journal.entries[count - 1].tag;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-fixture-'));
  try {
    migrationsUpTo(journal, count, path.join(work, 'migrations'));
    const dbFile = path.join(work, 'studio.db');
    const c = createClient({ url: `file:${dbFile}` });
    await c.execute('PRAGMA foreign_keys = ON');
    await migrate(drizzle(c), { migrationsFolder: path.join(work, 'migrations') });
    await fill(c, library(secrets), tag);
    const broken = (await c.execute('PRAGMA foreign_key_check')).rows;
    if (broken.length) throw new Error(`${tag}: the library breaks foreign keys: ${JSON.stringify(broken)}`);
    await c.execute('VACUUM');
    c.close();

    const out = path.join(FIXTURES, tag);
    fs.rmSync(out, { recursive: true, force: true });
    fs.mkdirSync(out, { recursive: true });
    // Gzipped: a database of mostly empty pages is 450 kB on disk and 20 kB packed.
    fs.writeFileSync(path.join(out, 'studio.db.gz'), zlib.gzipSync(fs.readFileSync(dbFile), { level: 9 }));
    const media = {};
    for (const [key, named] of Object.entries(secrets.files)) {
      fs.mkdirSync(path.join(out, 'media', key), { recursive: true });
      for (const [name, bytes] of Object.entries(named)) {
        fs.writeFileSync(path.join(out, 'media', key, name), bytes);
        media[`${key}/${name}`] = createHash('sha256').update(bytes).digest('hex');
      }
    }
    const fixture = { tag, migrations: count, staff: [STAFF, EDITOR], client: PORTAL, video: { id: 1, key: VIDEO_KEY }, image: { id: 2, key: IMAGE_KEY }, media };
    fs.writeFileSync(path.join(out, 'fixture.json'), JSON.stringify(fixture, null, 2) + '\n');
    return tag;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The states that need a fixture: every migration but the newest (today's code is the newest). */
export function fixtureTags() {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8'));
  return journal.entries.slice(0, -1).map((e) => e.tag);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8'));
  const wanted = journal.entries.slice(0, -1).map((e, i) => ({ tag: e.tag, count: i + 1 })).filter((s) => force || !fs.existsSync(path.join(FIXTURES, s.tag, 'fixture.json')));
  if (!wanted.length) {
    console.log('Every earlier schema state has its fixture.');
    process.exit(0);
  }
  const { hashPassword } = await import('../src/server/auth/password.ts');
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-files-'));
  const secrets = {
    adminHash: await hashPassword(STAFF.password),
    editorHash: await hashPassword(EDITOR.password),
    portalHash: await hashPassword(PORTAL.password),
    files: makeFiles(filesDir),
  };
  fs.rmSync(filesDir, { recursive: true, force: true });
  for (const s of wanted) console.log(`made ${path.relative(root, path.join(FIXTURES, await makeFixture(journal, s.count, secrets)))}`);
}
