// Drawings on the frame (issue 29), the pure part: where the picture sits inside an
// object-contain <video> or <img>, a pointer position as 0..1 picture coordinates, a shape as
// SVG geometry at any size (the overlay and the list previews), the text screen readers hear,
// and the limits of the schema applied while drawing.
import { MAX_SHAPES, MAX_SHAPE_POINTS, type Point, type Shape, type ShapeColor, type ShapeKind } from '../../shared/schemas/notes.ts';

/** The schema's colour names drawn in these (bright on video, readable on black and white). */
export const SHAPE_PALETTE: Record<ShapeColor, string> = {
  red: '#ef4444',
  orange: '#f97316',
  yellow: '#facc15',
  green: '#22c55e',
  blue: '#3b82f6',
  white: '#ffffff',
};

export const KIND_NAMES: Record<ShapeKind, [one: string, many: string]> = {
  freehand: ['freehand line', 'freehand lines'],
  arrow: ['arrow', 'arrows'],
  rect: ['rectangle', 'rectangles'],
  ellipse: ['ellipse', 'ellipses'],
};

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The picture's box inside an element of `box` size showing it with object-fit: contain: scaled
 * to fit, centred, the rest letterbox. An unknown picture size (no metadata yet) fills the box.
 */
export function pictureBox(box: { width: number; height: number }, natural: { width: number; height: number }): Box {
  if (!(natural.width > 0 && natural.height > 0 && box.width > 0 && box.height > 0)) return { left: 0, top: 0, width: box.width, height: box.height };
  const scale = Math.min(box.width / natural.width, box.height / natural.height);
  const width = natural.width * scale;
  const height = natural.height * scale;
  return {
    left: (box.width - width) / 2,
    top: (box.height - height) / 2,
    width,
    height,
  };
}

/** The intrinsic size of what a <video> or <img> shows (0 × 0 while unknown). */
export function naturalSize(el: HTMLVideoElement | HTMLImageElement): {
  width: number;
  height: number;
} {
  return el instanceof HTMLVideoElement ? { width: el.videoWidth, height: el.videoHeight } : { width: el.naturalWidth, height: el.naturalHeight };
}

const clamp01 = (n: number) => Math.min(1, Math.max(0, n));
/** Stored to 4 decimals: a tenth of a pixel on a 4K frame, and a short JSON. */
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** A coordinate kept within the picture (0..1) and stored to 4 decimals. */
export const toUnitCoordinate = (n: number) => round4(clamp01(n));

/** A position in the picture box's pixels as 0..1 coordinates (clamped: a drag may leave it). */
export function toUnit(x: number, y: number, box: { width: number; height: number }): Point {
  return [toUnitCoordinate(x / box.width), toUnitCoordinate(y / box.height)];
}

export type Geometry =
  | { el: 'path'; d: string; fill: boolean }
  | { el: 'line'; x1: number; y1: number; x2: number; y2: number }
  | { el: 'rect'; x: number; y: number; width: number; height: number }
  | { el: 'ellipse'; cx: number; cy: number; rx: number; ry: number };

/**
 * A shape as SVG elements for a picture `w` × `h` pixels. Drawn in pixels (not a stretched 0..1
 * viewBox) so an arrow's head keeps its angle whatever the picture's aspect.
 */
export function shapeGeometry(shape: Shape, w: number, h: number): Geometry[] {
  const pts = shape.points.map(([x, y]) => [x * w, y * h] as const);
  const [a, b = a] = pts;
  switch (shape.kind) {
    case 'freehand':
      // One point is a dot: a zero-length segment with round caps draws it.
      return [
        {
          el: 'path',
          d: pts.length === 1 ? `M${a[0]} ${a[1]}h0.01` : `M${pts.map((p) => `${p[0]} ${p[1]}`).join('L')}`,
          fill: false,
        },
      ];
    case 'arrow': {
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const head = Math.min(Math.max(6, Math.min(w, h) * 0.04), len * 0.6 || 6);
      const ang = Math.atan2(b[1] - a[1], b[0] - a[0]);
      const wing = (s: number) => `${b[0] - head * Math.cos(ang + s)} ${b[1] - head * Math.sin(ang + s)}`;
      return [
        { el: 'line', x1: a[0], y1: a[1], x2: b[0], y2: b[1] },
        {
          el: 'path',
          d: `M${wing(0.45)}L${b[0]} ${b[1]}L${wing(-0.45)}Z`,
          fill: true,
        },
      ];
    }
    case 'rect':
      return [
        {
          el: 'rect',
          x: Math.min(a[0], b[0]),
          y: Math.min(a[1], b[1]),
          width: Math.abs(b[0] - a[0]),
          height: Math.abs(b[1] - a[1]),
        },
      ];
    case 'ellipse':
      return [
        {
          el: 'ellipse',
          cx: (a[0] + b[0]) / 2,
          cy: (a[1] + b[1]) / 2,
          rx: Math.abs(b[0] - a[0]) / 2,
          ry: Math.abs(b[1] - a[1]) / 2,
        },
      ];
  }
}

/** "with a drawing: 1 arrow, 2 rectangles" (empty when none), for screen readers. */
export function describeShapes(shapes: readonly Shape[]): string {
  if (!shapes.length) return '';
  const counts = new Map<ShapeKind, number>();
  for (const s of shapes) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
  const parts = [...counts].map(([k, n]) => `${n} ${KIND_NAMES[k][n === 1 ? 0 : 1]}`);
  return `with a drawing: ${parts.join(', ')}`;
}

export const pointCount = (shapes: readonly Shape[]) => shapes.reduce((n, s) => n + s.points.length, 0);

/** Whether one more shape of `points` points still fits the schema's limits. */
export function fits(shapes: readonly Shape[], points: number): boolean {
  return shapes.length < MAX_SHAPES && pointCount(shapes) + points <= MAX_SHAPE_POINTS;
}

/**
 * Adds a pointer position to a freehand stroke, skipping moves under `minStep` (0..1 units) so a
 * slow hand does not spend the note's 2,000 points; `room` is how many points are left.
 */
export function extendStroke(points: Point[], p: Point, minStep: number, room: number): Point[] {
  const last = points.at(-1);
  if (points.length >= room || (last && Math.hypot(p[0] - last[0], p[1] - last[1]) < minStep)) return points;
  return [...points, p];
}

/** A two-point shape too small to mean anything (a click, not a drag) is dropped. */
export function isDegenerate(shape: Shape): boolean {
  if (shape.kind === 'freehand') return false;
  const [[x1, y1], [x2, y2] = [x1, y1]] = shape.points;
  return shape.kind === 'arrow' ? Math.hypot(x2 - x1, y2 - y1) < 0.01 : Math.abs(x2 - x1) < 0.005 || Math.abs(y2 - y1) < 0.005;
}

/** Whether the player at `atMs` stands on a note: its range, or within one frame of its moment. */
export function onNote(atMs: number, note: { ms: number; endMs: number | null }, frameMs: number): boolean {
  if (note.endMs != null && note.endMs > note.ms) return atMs >= note.ms - frameMs / 2 && atMs <= note.endMs;
  return Math.abs(atMs - note.ms) < frameMs;
}
