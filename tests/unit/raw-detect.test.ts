// RAW candidates by their first bytes (issue 42): TIFF byte orders (CR2, NEF, ARW, DNG), Fuji's
// RAF magic and Canon's CR3 ('crx ' brand) are images for exiftool to name; HEIC stays refused
// and an ordinary MP4 stays a video.
import { describe, expect, test } from 'vitest';
import { detectType } from '../../src/server/media/detect.ts';

const head = (...parts: (string | number[])[]) => new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p)))));

describe('detectType and RAW', () => {
  test.each([
    ['CR2 (little-endian TIFF, "CR")', head('II*\0', [16, 0, 0, 0], 'CR', [2, 0])],
    ['NEF/DNG (big-endian TIFF)', head('MM\0*', [0, 0, 0, 8])],
    ['RAF', head('FUJIFILMCCD-RAW 0201FF383501')],
    ['CR3', head([0, 0, 0, 24], 'ftypcrx ', [0, 0, 0, 1])],
  ])('%s is a RAW candidate for exiftool', (_name, bytes) => {
    expect(detectType(bytes)).toEqual({ kind: 'image', mimeType: 'image/x-raw', ext: 'raw', raw: true });
  });

  test('HEIC is still refused; MP4 is still a video', () => {
    expect(detectType(head([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0]))).toBeNull();
    expect(detectType(head([0, 0, 0, 24], 'ftypisom', [0, 0, 2, 0]))?.kind).toBe('video');
  });
});
