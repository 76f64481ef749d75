// The generated part of BENCHMARKS.md: one block per benchmark, each ending in a checksum line,
// so a figure edited (or a line added) by hand is caught before run.mjs writes over it or next
// to it. Blocks look like
//   <!-- bench:ssr:start -->
//   …markdown printed by run.mjs…
//   <!-- bench:ssr:sha256 <hex of everything between the start line and this line> -->
//   <!-- bench:ssr:end -->
// and sit, in run order, between the file's <!-- bench:start --> and <!-- bench:end --> markers.
import { createHash } from 'node:crypto';

export const START = '<!-- bench:start -->';
export const END = '<!-- bench:end -->';

const BLOCK = /<!-- bench:([a-z0-9-]+):start -->\n([\s\S]*?)<!-- bench:\1:end -->\n?/g;
const SUM = /<!-- bench:([a-z0-9-]+):sha256 ([0-9a-f]{64}) -->\n$/;

export const checksum = (body) => createHash('sha256').update(body).digest('hex');

/** The block for `name` holding `markdown` (no trailing newline needed), checksum included. */
export function renderBlock(name, markdown) {
  // No trailing spaces, so an editor that trims them does not break the checksum.
  const body = markdown.split('\n').map((l) => l.trimEnd()).join('\n').replace(/\s+$/, '') + '\n';
  return `<!-- bench:${name}:start -->\n${body}<!-- bench:${name}:sha256 ${checksum(body)} -->\n<!-- bench:${name}:end -->\n`;
}

/**
 * Every generated block in `doc` with what is wrong with it, if anything: `problem` is null for
 * an untouched block and for an empty one (start and end markers only: a place to write).
 */
export function readBlocks(doc) {
  const blocks = [];
  for (const m of doc.matchAll(BLOCK)) {
    const [text, name, inner] = m;
    let problem = null;
    if (inner !== '') {
      const sum = inner.match(SUM);
      if (!sum || sum[1] !== name) problem = 'has no checksum line (written by hand or by an older run.mjs)';
      else if (checksum(inner.slice(0, sum.index)) !== sum[2]) problem = 'does not match its checksum: it was edited by hand';
    }
    blocks.push({ name, text, index: m.index, problem });
  }
  return blocks;
}

/** Problems that forbid writing: any block edited by hand, any text left between blocks. */
export function problemsIn(doc) {
  const out = [];
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 && end < 0) return out;
  if (start < 0 || end < start) return [`BENCHMARKS.md has ${START} and ${END} out of order or one of them missing`];
  for (const b of readBlocks(doc)) if (b.problem) out.push(`the "${b.name}" block ${b.problem}`);
  // Only generated blocks belong between the markers; prose goes outside them.
  const between = doc.slice(start + START.length, end).replace(BLOCK, '').trim();
  if (between) out.push(`text outside any benchmark's block sits between ${START} and ${END}: "${between.slice(0, 80)}"`);
  return out;
}

/**
 * `doc` with the blocks in `fresh` (name → markdown) written: an existing block of that name is
 * replaced, a new one goes before the first block that comes later in `order`. Throws, naming
 * every problem, when the document holds a block edited by hand.
 */
export function writeBlocks(doc, fresh, order) {
  const problems = problemsIn(doc);
  if (problems.length) {
    throw new Error(
      `BENCHMARKS.md was not written: ${problems.join('; ')}.\n` +
        'The figures between the bench markers must be exactly what the benchmarks printed. Put notes in the prose outside the markers; ' +
        'to replace a block, empty it (keep its start and end lines) or delete it, then run the benchmark again.',
    );
  }
  if (!doc.includes(START)) doc = `${doc.replace(/\n*$/, '\n')}\n${START}\n${END}\n`;
  for (const [name, markdown] of Object.entries(fresh)) {
    const block = renderBlock(name, markdown);
    const existing = readBlocks(doc).find((b) => b.name === name);
    if (existing) {
      doc = doc.slice(0, existing.index) + block + doc.slice(existing.index + existing.text.length);
      continue;
    }
    const later = readBlocks(doc).find((b) => order.indexOf(b.name) > order.indexOf(name));
    const at = later ? later.index : doc.indexOf(END);
    doc = doc.slice(0, at) + block + doc.slice(at);
  }
  return doc;
}
