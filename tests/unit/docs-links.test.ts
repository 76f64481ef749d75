// Issue 34: every relative link in README.md and docs/*.md resolves to a file (or folder) of the
// repository, and every #anchor to a heading of the page it names, by GitHub's slug rules.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { anchors, githubSlug, isExternal, links } from '../helpers/markdown-links.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PAGES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The problems with `page`'s relative links: one line each, naming the page's line. */
function brokenLinks(page: string, read: (file: string) => string, kind: (file: string) => 'file' | 'folder' | null): string[] {
  const problems: string[] = [];
  for (const { line, target } of links(read(page))) {
    if (isExternal(target)) continue;
    const hash = target.indexOf('#');
    const filePart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const file = filePart === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), filePart));
    const where = `${page}:${line} → ${target}`;
    if (file.startsWith('..') || kind(file) === null) {
      problems.push(`${where}: no file ${file}`);
      continue;
    }
    if (anchor === null) continue;
    if (!file.endsWith('.md') || kind(file) !== 'file') {
      problems.push(`${where}: an anchor into ${file}, which is not a Markdown page`);
      continue;
    }
    if (!anchors(read(file)).has(anchor)) problems.push(`${where}: ${file} has no heading with the anchor #${anchor}`);
  }
  return problems;
}

const readRepo = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const kindInRepo = (file: string) => {
  const full = path.join(ROOT, file);
  if (!existsSync(full)) return null;
  return statSync(full).isDirectory() ? 'folder' : 'file';
};

test('the docs are there: README.md and at least one page under docs/', () => {
  expect(PAGES).toContain('README.md');
  expect(PAGES.length).toBeGreaterThan(1);
});

test('the link reader finds the links (the README alone links every page)', () => {
  expect(links(readRepo('README.md')).filter((l) => !isExternal(l.target)).length).toBeGreaterThan(PAGES.length - 1);
});

test.each(PAGES)('every relative link in %s resolves', (page) => {
  expect(brokenLinks(page, readRepo, kindInRepo)).toEqual([]);
});

test('the README links every page under docs/', () => {
  const linked = new Set(links(readRepo('README.md')).map((l) => path.posix.normalize(l.target.split('#')[0])));
  expect(PAGES.filter((p) => p.startsWith('docs/') && !linked.has(p))).toEqual([]);
});

// The checker itself: GitHub's anchors (expected values from github-slugger 2, which GitHub's renderer follows).
test.each([
  ['Review workflow: versions, approval, replies', 'review-workflow-versions-approval-replies'],
  ['Public pages at scale (paged portfolio, bounded home grid)', 'public-pages-at-scale-paged-portfolio-bounded-home-grid'],
  ['`S3_BUCKET` and `NOTIFY_FROM`', 's3_bucket-and-notify_from'],
  ['Media & video — the pipeline', 'media--video--the-pipeline'],
  ["What's 1.5× faster?", 'whats-15-faster'],
  ['Émigré café', 'émigré-café'],
  ['[Share links](share-links.md) and **sessions**', 'share-links-and-sessions'],
])('githubSlug(%j) = %s', (heading, slug) => {
  expect(githubSlug(heading)).toBe(slug);
});

test('the checker finds a missing file, a missing anchor and a repeated heading\'s anchor, and skips code', () => {
  const pages: Record<string, string> = {
    'docs/a.md': '# A\n\n## Setup\n\n## Setup\n\n[ok](b.md#usage) [ok](#setup-1) [ok](../src) [bad](missing.md) [bad](b.md#nope) [bad](#setup-2) [bad](../src#x)\n\n```\n[in code](nowhere.md)\n```\n`[inline](nowhere.md)`\n',
    'docs/b.md': '# B\n\n## Usage\n',
  };
  const kind = (f: string) => (f in pages ? 'file' : f === 'src' ? 'folder' : null);
  expect(anchors(pages['docs/a.md'])).toEqual(new Set(['a', 'setup', 'setup-1']));
  expect(brokenLinks('docs/a.md', (f) => pages[f], kind)).toEqual([
    'docs/a.md:7 → missing.md: no file docs/missing.md',
    'docs/a.md:7 → b.md#nope: docs/b.md has no heading with the anchor #nope',
    'docs/a.md:7 → #setup-2: docs/a.md has no heading with the anchor #setup-2',
    'docs/a.md:7 → ../src#x: an anchor into src, which is not a Markdown page',
  ]);
});
