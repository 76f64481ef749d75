// A cue's text reduced to what WebVTT shows and what the text rules allow (issue 54). Editors
// style with <i>, <b>, <u>, <font …> and SubStation's {\an8}; WebVTT shows italic, bold and
// underline, and places a cue with its settings, so <i>/<b>/<u> are kept (balanced), {\anN}
// becomes a `line`/`align` setting, and <font>, classes, voices and karaoke times are dropped
// with their text kept. Any other tag (<script>, <img>, <a>) is refused naming the line: a
// caption is text shown to other people, never markup. Entities are read, then the text obeys
// the free-text rules (no control, bidi-control or invisible characters), and is stored escaped
// (&amp; &lt; &gt;) with only those three tags: a WebVTT cue payload, safe in every output.
import { textProblem, unseenProblem } from '../../shared/schemas/text.ts';
import { CaptionInputError } from './errors.ts';

/** Longer than anyone can read in a cue's few seconds: a file pasted into one cue, or garbage. */
export const CUE_TEXT_MAX = 1000;

const KEPT = new Set(['i', 'b', 'u']);
/** Styling WebVTT (or our players) cannot show: dropped, the text inside kept. */
const DROPPED = new Set(['font', 'c', 'v', 'lang', 'ruby', 'rt', 'span', 's', 'strike', 'em', 'strong', 'small', 'big', 'sup', 'sub']);

/** Repairs said once per file ("styling dropped"), in the order met. */
export type Notes = Set<string>;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', quot: '"', apos: "'", lrm: '\u200e', rlm: '\u200f' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

export const escapeCueText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** SubStation's numpad positions as WebVTT settings (2, bottom centre, is the default). */
function anSettings(n: number): string {
  const line = n >= 7 ? 'line:0' : n >= 4 ? 'line:50%,center' : '';
  const align = n % 3 === 1 ? 'align:start' : n % 3 === 0 ? 'align:end' : '';
  return [line, align].filter(Boolean).join(' ');
}

const SETTING_RES = [
  /^line:(-?\d{1,3}|\d{1,3}(\.\d+)?%)(,(start|center|end))?$/,
  /^position:\d{1,3}(\.\d+)?%(,(line-left|center|line-right))?$/,
  /^align:(start|center|end|left|right)$/,
  /^size:\d{1,3}(\.\d+)?%$/,
];

/** A WebVTT timing line's settings, keeping those our players honour (no regions, no vertical text). */
export function vttSettings(text: string, notes: Notes): string {
  const kept: string[] = [];
  for (const token of text.split(/\s+/).filter(Boolean)) {
    if (SETTING_RES.some((re) => re.test(token))) kept.push(token);
    else notes.add(`cue settings other than line, position, align and size were dropped (${token.split(':')[0]})`);
  }
  return kept.join(' ');
}

export interface CleanCue {
  text: string;
  settings: string;
}

/** The cue's text as stored, or null when nothing is left to show. */
export function cleanCueText(raw: string, line: number, notes: Notes, settings = ''): CleanCue | null {
  let placed = settings;
  const unblocked = raw.replace(/\{\\[^}]*\}/g, (block) => {
    const an = /\\an([1-9])/.exec(block);
    if (an) placed = anSettings(Number(an[1]));
    const rest = block.replace(/\\an[1-9]/, '').replace(/[{}]/g, '');
    if (rest.trim()) notes.add('SubStation override tags ({\\…}) other than {\\anN} were dropped');
    return '';
  });
  let out = '';
  let plain = '';
  const open: string[] = [];
  const literal = (s: string) => {
    const text = decodeEntities(s.replace(/\t/g, ' '));
    plain += text;
    out += escapeCueText(text);
  };
  const tagRe = /<([^<>]*)>/g;
  let at = 0;
  for (const m of unblocked.matchAll(tagRe)) {
    literal(unblocked.slice(at, m.index));
    at = m.index + m[0].length;
    const inner = m[1]!;
    // A tag starts right after "<" ("< b >" is text) and its name ends the tag or is followed by
    // a space (attributes, a voice's name) or a dot (WebVTT classes).
    const tag = /^(\/?)([a-zA-Z][a-zA-Z0-9]*)(?:$|[\s./])/.exec(inner);
    if (/^\s*\/?\s*\d{1,2}:\d{2}/.test(inner)) continue; // a karaoke time: dropped
    if (!tag) {
      literal(m[0]); // "<3", "< and >": text
      continue;
    }
    const [, slash, rawName] = tag;
    const name = rawName!.toLowerCase();
    if (KEPT.has(name)) {
      if (!slash) {
        open.push(name);
        out += `<${name}>`;
      } else if (open.includes(name)) {
        // Closes it and anything opened inside it, then opens those again (mis-nested tags).
        const above: string[] = [];
        for (let top = open.pop(); top !== undefined; top = open.pop()) {
          out += `</${top}>`;
          if (top === name) break;
          above.unshift(top);
        }
        for (const a of above) {
          open.push(a);
          out += `<${a}>`;
        }
      }
    } else if (name === 'br') {
      out += '\n';
      plain += '\n';
    } else if (DROPPED.has(name)) {
      notes.add(`styling WebVTT cannot show was dropped, its text kept (<${name}>)`);
    } else {
      throw new CaptionInputError(line, `the cue text holds HTML (<${name}>), which captions cannot show: only <i>, <b>, <u> and <font> are read`);
    }
  }
  literal(unblocked.slice(at));
  while (open.length) out += `</${open.pop()}>`;

  const problem = textProblem(plain, true) ?? unseenProblem(plain);
  if (problem) throw new CaptionInputError(line, `the cue text ${problem}`);
  if (plain.length > CUE_TEXT_MAX) throw new CaptionInputError(line, `the cue text is ${plain.length} characters long; a cue may hold at most ${CUE_TEXT_MAX}`);
  // Lines trimmed and empty ones gone (a blank line would end a WebVTT cue); a line of tags
  // alone joins its neighbour, so "<i>" on a line of its own still opens the next.
  const lines: string[] = [];
  let carry = '';
  for (const l of out.split('\n').map((x) => x.trim())) {
    if (l.replace(/<\/?[ibu]>/g, '').trim() !== '') {
      lines.push(carry + l);
      carry = '';
    } else if (lines.length && /^(<\/[ibu]>)+$/.test(l)) lines[lines.length - 1] += l;
    else carry += l;
  }
  if (!lines.length) return null;
  if (carry) lines[lines.length - 1] += carry;
  const text = lines.join('\n');
  return { text, settings: placed };
}

/** The stored text as plain text (transcripts, search): tags gone, entities read. */
export function plainCueText(text: string): string {
  return text.replace(/<\/?[ibu]>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
