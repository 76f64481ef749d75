// Reading a Markdown page the way GitHub renders it, for the docs link test (issue 34):
// its headings' anchors (GitHub's slug rules) and its links, outside code.

/** The text of a heading as rendered: links, images, inline code and emphasis marks reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, '') // closing hashes
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/\*(.+?)\*/g, '$1')
    .trim();
}

/** GitHub's anchor for a heading text (github-slugger): lower case, punctuation and symbols dropped, spaces to hyphens. */
export function githubSlug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The page's lines outside fenced code blocks, with their 1-based line numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, i) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (m) {
      if (fence === null) fence = m[1][0].repeat(m[1].length);
      else if (m[1].startsWith(fence)) fence = null;
      return;
    }
    if (fence === null) out.push({ line: i + 1, text });
  });
  return out;
}

/** Every anchor the page has: one per heading (repeats numbered -1, -2 as GitHub does), plus explicit id/name attributes. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const h = /^\s{0,3}#{1,6}\s+(.*)$/.exec(text);
    if (h) {
      const base = githubSlug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of text.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) out.add(a[1]);
  }
  return out;
}

export interface MarkdownLink {
  line: number;
  target: string;
}

/** Inline links and images `[text](target)` and reference definitions `[x]: target`, outside code. */
export function links(markdown: string): MarkdownLink[] {
  const out: MarkdownLink[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line, target: m[1] });
    const def = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
    if (def) out.push({ line, target: def[1] });
  }
  return out;
}

/** A link to another site or protocol, which the test does not follow. */
export const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
