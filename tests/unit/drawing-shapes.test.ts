// The pure part of drawing on the frame (issue 29): where an object-contain picture sits in its
// element, pointer positions as 0..1 picture coordinates, the words screen readers hear, the
// schema's limits while drawing, and which notes the player stands on.
import { describe, expect, test } from 'vitest';
import { describeShapes, extendStroke, fits, isDegenerate, onNote, pictureBox, shapeGeometry, toUnit } from '../../src/islands/review/shapes.ts';
import type { Shape } from '../../src/shared/schemas/notes.ts';

describe('pictureBox (object-fit: contain)', () => {
  test.each([
    ['a 16:9 picture in a taller box: bars above and below', { width: 640, height: 500 }, { width: 1920, height: 1080 }, { left: 0, top: 70, width: 640, height: 360 }],
    ['a portrait picture in a wide box: bars left and right', { width: 646, height: 500 }, { width: 240, height: 320 }, { left: 135.5, top: 0, width: 375, height: 500 }],
    ['the same aspect: no bars', { width: 320, height: 180 }, { width: 1280, height: 720 }, { left: 0, top: 0, width: 320, height: 180 }],
    ['an unknown picture size (no metadata yet): the whole box', { width: 300, height: 200 }, { width: 0, height: 0 }, { left: 0, top: 0, width: 300, height: 200 }],
  ])('%s', (_label, box, natural, want) => {
    const got = pictureBox(box, natural);
    for (const k of ['left', 'top', 'width', 'height'] as const) expect(got[k]).toBeCloseTo(want[k], 6);
  });
});

test('toUnit clamps a drag that leaves the picture and rounds to 4 decimals', () => {
  expect(toUnit(50, 25, { width: 200, height: 100 })).toEqual([0.25, 0.25]);
  expect(toUnit(-10, 130, { width: 200, height: 100 })).toEqual([0, 1]);
  expect(toUnit(1, 1, { width: 3, height: 3 })).toEqual([0.3333, 0.3333]);
});

test('describeShapes counts each kind, singular and plural; nothing for no drawing', () => {
  const s = (kind: Shape['kind']): Shape => ({ kind, color: 'red', points: [[0, 0], [1, 1]] });
  expect(describeShapes([])).toBe('');
  expect(describeShapes([s('arrow'), s('rect')])).toBe('with a drawing: 1 arrow, 1 rectangle');
  expect(describeShapes([s('ellipse'), s('freehand'), s('ellipse')])).toBe('with a drawing: 2 ellipses, 1 freehand line');
});

test('fits keeps to 50 shapes and 2,000 points; extendStroke skips tiny moves and stops at the room left', () => {
  const many = Array.from({ length: 50 }, (): Shape => ({ kind: 'rect', color: 'red', points: [[0, 0], [1, 1]] }));
  expect(fits(many.slice(0, 49), 2)).toBe(true);
  expect(fits(many, 2)).toBe(false);
  expect(fits([{ kind: 'freehand', color: 'red', points: Array.from({ length: 1999 }, () => [0, 0] as [number, number]) }], 2)).toBe(false);
  const pts: [number, number][] = [[0.5, 0.5]];
  expect(extendStroke(pts, [0.501, 0.5], 0.004, 10)).toBe(pts);
  expect(extendStroke(pts, [0.51, 0.5], 0.004, 10)).toEqual([[0.5, 0.5], [0.51, 0.5]]);
  expect(extendStroke(pts, [0.9, 0.5], 0.004, 1)).toBe(pts);
});

test('a click without a drag is dropped, a freehand dot is kept', () => {
  expect(isDegenerate({ kind: 'arrow', color: 'red', points: [[0.5, 0.5], [0.5, 0.5]] })).toBe(true);
  expect(isDegenerate({ kind: 'rect', color: 'red', points: [[0.1, 0.1], [0.4, 0.101]] })).toBe(true);
  expect(isDegenerate({ kind: 'ellipse', color: 'red', points: [[0.1, 0.1], [0.4, 0.4]] })).toBe(false);
  expect(isDegenerate({ kind: 'freehand', color: 'red', points: [[0.1, 0.1]] })).toBe(false);
});

test('shapeGeometry draws in pixels of the picture: the arrow line from its first to its second point', () => {
  const [line, head] = shapeGeometry({ kind: 'arrow', color: 'red', points: [[0.25, 0.25], [0.75, 0.75]] }, 400, 200);
  expect(line).toEqual({ el: 'line', x1: 100, y1: 50, x2: 300, y2: 150 });
  expect(head).toMatchObject({ el: 'path', fill: true });
  expect(shapeGeometry({ kind: 'rect', color: 'red', points: [[0.5, 0.5], [0.25, 0.25]] }, 400, 200)).toEqual([{ el: 'rect', x: 100, y: 50, width: 100, height: 50 }]);
  expect(shapeGeometry({ kind: 'ellipse', color: 'red', points: [[0, 0], [1, 1]] }, 400, 200)).toEqual([{ el: 'ellipse', cx: 200, cy: 100, rx: 200, ry: 100 }]);
});

test('onNote: within one frame of a point note, or inside a range', () => {
  const frame = 40;
  expect(onNote(2000, { ms: 2000, endMs: null }, frame)).toBe(true);
  expect(onNote(2039, { ms: 2000, endMs: null }, frame)).toBe(true);
  expect(onNote(2040, { ms: 2000, endMs: null }, frame)).toBe(false);
  expect(onNote(2500, { ms: 2000, endMs: 3000 }, frame)).toBe(true);
  expect(onNote(3100, { ms: 2000, endMs: 3000 }, frame)).toBe(false);
});
