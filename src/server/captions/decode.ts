// A caption file's bytes as text (issue 54). Editors send UTF-8 with or without a byte-order
// mark, UTF-16 either way round (Windows tools), or Windows-1252 (older tools on Western
// systems). The encoding is decided from the bytes, in this order, and said in the answer and the
// panel: a byte-order mark; UTF-16 without one (every other byte zero); valid UTF-8; else
// Windows-1252, but only when every byte is one that code page defines. Anything else is refused
// naming the line, rather than read as something it may not be.
import type { CaptionEncoding } from '../../shared/schemas/captions.ts';
import { CaptionInputError } from './errors.ts';

export interface Decoded {
  text: string;
  encoding: CaptionEncoding;
}

/** Bytes Windows-1252 leaves undefined (WHATWG maps them to C1 controls). */
const UNDEFINED_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

const lineOfByte = (bytes: Uint8Array, at: number) => {
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line++;
  return line;
};

/** UTF-16 without a byte-order mark: zero bytes on one side of most pairs of the first 4 kB. */
function utf16Without(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length < 4 || bytes.length % 2) return null;
  const n = Math.min(bytes.length, 4096);
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i + 1 < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.3 && evenZero < pairs * 0.05) return 'utf-16le';
  if (evenZero > pairs * 0.3 && oddZero < pairs * 0.05) return 'utf-16be';
  return null;
}

const NOT_TEXT = 'this is not a text file (it holds binary data): send an SRT, WebVTT or SubViewer (SBV) file';

function utf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', skip: number): Decoded {
  try {
    return { text: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(skip)), encoding };
  } catch {
    throw new CaptionInputError(null, `the file starts as ${encoding === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE'} but is not valid in it`);
  }
}

export function decodeCaptionBytes(bytes: Uint8Array): Decoded {
  if (bytes.length === 0) throw new CaptionInputError(null, 'the file is empty');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return utf8(bytes.subarray(3), 'utf-8-bom');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes, 'utf-16le', 2);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes, 'utf-16be', 2);
  const sixteen = utf16Without(bytes);
  if (sixteen) return utf16(bytes, sixteen, 0);
  const nul = bytes.indexOf(0);
  if (nul >= 0 && nul < 65536) throw new CaptionInputError(null, NOT_TEXT);
  return utf8(bytes, 'utf-8');
}

function utf8(bytes: Uint8Array, encoding: 'utf-8' | 'utf-8-bom'): Decoded {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), encoding };
  } catch {
    if (encoding === 'utf-8-bom') throw new CaptionInputError(null, 'the file starts with a UTF-8 byte-order mark but is not valid UTF-8');
  }
  const bad = bytes.findIndex((b) => UNDEFINED_1252.has(b));
  if (bad >= 0) {
    throw new CaptionInputError(
      lineOfByte(bytes, bad),
      `byte 0x${bytes[bad]!.toString(16).toUpperCase()} is neither UTF-8 nor Windows-1252: save the file as UTF-8`,
    );
  }
  return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
}
