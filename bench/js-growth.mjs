// JavaScript weight against the build before the review work (issue 29's budget: review islands
// grow by at most 30 KB gzip; public pages do not grow at all). Builds the baseline commit
// (BENCH_JS_BASE, default the parent of the first issue 29 commit) in a temporary worktree, then
// reads both builds' chunks: for each island, the gzip -9 size (what nginx's gzip_static sends)
// of its chunk and every chunk it imports statically (what hydrating it downloads), and, for
// the review islands, also what they may fetch later through dynamic imports (hls.js when a
// player streams, ...). The public figure is the union over the islands public pages hydrate
// (shared chunks once).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROOT, emit, main, num } from './lib.mjs';

const BASE = process.env.BENCH_JS_BASE || '53e3e06^';
const BUDGET_REVIEW_BYTES = 30 * 1024;
// The islands public pages hydrate (src/pages outside /admin, /client and /s; their layouts).
// Islands by their file under src/islands: the admin shell has a UserMenu and a MobileMenu of
// its own, so a chunk's name alone does not say which one a page loads.
const PUBLIC = ['public/CookieBanner', 'public/EnquiryForm', 'public/GridEnhancer', 'public/MobileMenu', 'public/UserMenu', 'public/WatchPlayer', 'ThemeToggle', 'Toaster'];
// What each public page hydrates (BaseLayout and SiteNav give every page the first five; the
// page adds its own). The watch page's WatchPlayer is issue 32's (the portfolio dialog's player
// on the watch page), so that page is expected to grow by it.
const LAYOUT = ['Toaster', 'public/CookieBanner', 'ThemeToggle', 'public/UserMenu', 'public/MobileMenu'];
const PAGES = {
  '/': [...LAYOUT, 'public/GridEnhancer'],
  '/portfolio': [...LAYOUT, 'public/GridEnhancer'],
  '/about, /services, /privacy-policy': LAYOUT,
  '/contact': [...LAYOUT, 'public/EnquiryForm'],
  '/portfolio/{slug} (watch page)': [...LAYOUT, 'public/WatchPlayer'],
};
const REVIEW = ['admin/media/MediaManager', 'portal/PortalDashboard', 'share/ShareViewer'];

// Strings only the review code holds (test ids of src/islands/review): none may reach a public page.
const REVIEW_MARKS = ['note-markers', 'drawing-layer', 'compare-view', 'keys-list', 'loop-note', 'formatted-smpte'];

const STATIC_RE = /(?:import|export)\s*(?:[\w*${}\s,]+from\s*)?["']\.\/([\w.-]+\.js)["']/g;
const DYNAMIC_RE = /import\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g;
// Vite's preload list beside a dynamic import: the chunks fetched with it.
const PRELOAD_RE = /["'`](?:\/?_astro\/)([\w.-]+\.js)["'`]/g;

// Astro's server build maps each island's source file to its client chunk.
const ISLAND_RE = /"[^"]*\/src\/islands\/([\w/.-]+)\.tsx":"_astro\/([\w.-]+\.js)"/g;

function islandChunks(dist) {
  const map = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.m?js$/.test(e.name)) for (const m of fs.readFileSync(p, 'utf8').matchAll(ISLAND_RE)) map.set(m[1], m[2]);
    }
  };
  walk(path.join(dist, 'server'));
  return map;
}

function chunks(dist) {
  const dir = path.join(dist, 'client', '_astro');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
  const info = new Map();
  for (const f of files) {
    const src = fs.readFileSync(path.join(dir, f), 'utf8');
    const stat = new Set([...src.matchAll(STATIC_RE)].map((m) => m[1]));
    const dyn = new Set([...src.matchAll(DYNAMIC_RE)].map((m) => m[1]).concat([...src.matchAll(PRELOAD_RE)].map((m) => m[1])));
    for (const s of stat) dyn.delete(s);
    info.set(f, { gzip: zlib.gzipSync(src, { level: 9 }).length, stat, dyn, marks: REVIEW_MARKS.filter((m) => src.includes(m)) });
  }
  return info;
}

function closure(info, roots, withDynamic) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length) {
    const f = stack.pop();
    if (seen.has(f) || !info.has(f)) continue;
    seen.add(f);
    const c = info.get(f);
    stack.push(...c.stat, ...(withDynamic ? c.dyn : []));
  }
  return seen;
}

const bytes = (info, set) => [...set].reduce((s, f) => s + info.get(f).gzip, 0);

// Astro's React renderer (client.*.js) comes with every island.
const renderer = (info) => [...info.keys()].filter((f) => /^client\.[\w-]+\.js$/.test(f));

function measure(dist) {
  const info = chunks(dist);
  const islands = islandChunks(dist);
  const entry = (_info, name) => (islands.has(name) ? [islands.get(name)] : []);
  const base = renderer(info);
  const missing = [...PUBLIC, ...REVIEW].filter((n) => !entry(info, n).length);
  const publicSet = closure(info, [...base, ...PUBLIC.flatMap((n) => entry(info, n))], false);
  const review = Object.fromEntries(
    REVIEW.map((n) => {
      const roots = [...base, ...entry(info, n)];
      return [n, { hydrate: bytes(info, closure(info, roots, false)), all: bytes(info, closure(info, roots, true)) }];
    }),
  );
  // Per chunk name (the hash left out), for saying what grew.
  const publicChunks = {};
  for (const f of publicSet) {
    const name = f.replace(/\.[\w-]+\.js$/, '');
    publicChunks[name] = (publicChunks[name] ?? 0) + info.get(f).gzip;
  }
  const pages = Object.fromEntries(
    Object.entries(PAGES).map(([page, islands]) => [page, bytes(info, closure(info, [...base, ...islands.flatMap((n) => entry(info, n))], false))]),
  );
  const reviewOnPublic = [...publicSet].flatMap((f) => info.get(f).marks.map((m) => `${m} in ${f}`));
  return { pages, publicBytes: bytes(info, publicSet), publicFiles: publicSet.size, publicChunks, reviewOnPublic, review, missing };
}

main(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'js-growth-'));
  const wt = path.join(tmp, 'base');
  const rev = execFileSync('git', ['rev-parse', '--short', BASE], { cwd: ROOT, encoding: 'utf8' }).trim();
  execFileSync('git', ['worktree', 'add', '--detach', wt, rev], { cwd: ROOT, stdio: 'ignore' });
  try {
    // A tree of hard links (on the same disk): astro 7's build follows a symlinked node_modules
    // out of the worktree and fails ("No cached compile metadata found"). Elsewhere, the symlink.
    try {
      execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(wt, 'node_modules')], { stdio: 'ignore' });
    } catch {
      fs.rmSync(path.join(wt, 'node_modules'), { recursive: true, force: true });
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(wt, 'node_modules'));
    }
    execFileSync('npm', ['run', 'build'], { cwd: wt, stdio: 'ignore', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
    const before = measure(path.join(wt, 'dist'));
    const now = measure(path.join(ROOT, process.env.STUDIO_OUT_DIR || 'dist'));
    const kb = (b) => num(b / 1024, 1);
    const sign = (b) => `${b >= 0 ? '+' : '-'}${kb(Math.abs(b))} KB`;
    console.log(`JavaScript, gzip -9, baseline ${rev} (before issue 29) built in the same run against this build:`);
    const pub = now.publicBytes - before.publicBytes;
    console.log(`public pages (islands ${PUBLIC.join(', ')}; shared chunks once): ${kb(before.publicBytes)} KB -> ${kb(now.publicBytes)} KB, ${sign(pub)} (goal: no growth: ${pub <= 0 ? 'met' : 'MISSED'})`);
    const changes = Object.keys({ ...before.publicChunks, ...now.publicChunks })
      .map((name) => [name, (now.publicChunks[name] ?? 0) - (before.publicChunks[name] ?? 0)])
      .filter(([, d]) => Math.abs(d) >= 100)
      .sort((a, b) => b[1] - a[1]);
    console.log(`  by chunk (changes of 100 bytes or more): ${changes.map(([n, d]) => `${n} ${sign(d)}${before.publicChunks[n] === undefined ? ' (new)' : now.publicChunks[n] === undefined ? ' (gone)' : ''}`).join(', ')}`);
    for (const page of Object.keys(PAGES)) {
      const d = now.pages[page] - before.pages[page];
      console.log(`  ${page.padEnd(36)} ${kb(before.pages[page])} -> ${kb(now.pages[page])} KB, ${sign(d)} (${d <= 0 ? 'no growth' : `grew by ${d} bytes`})`);
    }
    console.log(`  review code on public pages (searched for ${REVIEW_MARKS.join(', ')}): ${now.reviewOnPublic.join('; ') || 'none'}`);
    const rows = [];
    for (const n of REVIEW) {
      const b = before.review[n];
      const a = now.review[n];
      const grow = a.hydrate - b.hydrate;
      rows.push({ island: n, before: b, now: a, growth: grow, met: grow <= BUDGET_REVIEW_BYTES });
      console.log(`${n.split('/').pop().padEnd(16)} hydrate ${kb(b.hydrate)} -> ${kb(a.hydrate)} KB, ${sign(grow)} (goal <= +30 KB: ${grow <= BUDGET_REVIEW_BYTES ? 'met' : 'MISSED'}); with everything it may fetch later ${kb(b.all)} -> ${kb(a.all)} KB`);
    }
    if (before.missing.length || now.missing.length) console.log(`islands without a chunk of their own (inlined or renamed): baseline ${before.missing.join(', ') || 'none'}; now ${now.missing.join(', ') || 'none'}`);
    emit('js-growth', { base: rev, pages: Object.fromEntries(Object.keys(PAGES).map((p) => [p, { before: before.pages[p], now: now.pages[p] }])), publicBefore: before.publicBytes, publicNow: now.publicBytes, publicChanges: changes, reviewOnPublic: now.reviewOnPublic, review: rows });
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', wt], { cwd: ROOT, stdio: 'ignore' });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
