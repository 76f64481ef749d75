// Drawings on the frame (issue 29), shared by the admin detail dialog, the portal item dialog and
// the share page: the SVG layer laid exactly over the picture of a <video> or <img> (its
// letterbox left out), the drawing tools next to a note form, and the small preview in the lists.
import { memo, useEffect, useLayoutEffect, useReducer, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode, type RefObject } from 'react';
import { ArrowUpRight, Circle, PenLine, Pencil, Redo2, Square, Trash2, Undo2 } from 'lucide-react';
import { SHAPE_COLORS, SHAPE_KINDS, type Point, type Shape, type ShapeColor, type ShapeKind } from '../../shared/schemas/notes.ts';
import { fpsOf, noteMs } from './frames.ts';
import { SHAPE_PALETTE, describeShapes, extendStroke, fits, isDegenerate, naturalSize, onNote, pictureBox, pointCount, shapeGeometry, toUnit, toUnitCoordinate, type Box } from './shapes.ts';
import { MAX_SHAPE_POINTS } from '../../shared/schemas/notes.ts';

/** A note's drawing and the moment (or range) it belongs to. */
export interface NoteDrawing {
  key: string;
  ms: number;
  endMs: number | null;
  shapes: Shape[];
}

/** The drawings of any note list (portal, admin, share page); notes without shapes left out. */
export function noteDrawings<
  T extends {
    id: number;
    source?: string;
    timestampMs?: number | null;
    timestampSeconds?: number | null;
    endMs?: number | null;
    shapes?: Shape[];
  },
>(notes: T[]): NoteDrawing[] {
  return notes
    .filter((n) => n.shapes?.length)
    .map((n) => ({
      key: `${n.source ?? 'note'}-${n.id}`,
      ms: noteMs(n),
      endMs: n.endMs ?? null,
      shapes: n.shapes!,
    }));
}

// --- The drawing being made: tool, colour, shapes with undo and redo ---------------------------

interface History {
  past: Shape[][];
  present: Shape[];
  future: Shape[][];
}
type HistoryAction = { type: 'add'; shape: Shape } | { type: 'clear' } | { type: 'undo' } | { type: 'redo' } | { type: 'reset' };

function history(h: History, a: HistoryAction): History {
  switch (a.type) {
    case 'add':
      return {
        past: [...h.past, h.present],
        present: [...h.present, a.shape],
        future: [],
      };
    case 'clear':
      return h.present.length ? { past: [...h.past, h.present], present: [], future: [] } : h;
    case 'undo':
      return h.past.length
        ? {
            past: h.past.slice(0, -1),
            present: h.past.at(-1)!,
            future: [h.present, ...h.future],
          }
        : h;
    case 'redo':
      return h.future.length
        ? {
            past: [...h.past, h.present],
            present: h.future[0]!,
            future: h.future.slice(1),
          }
        : h;
    case 'reset':
      return { past: [], present: [], future: [] };
  }
}

/** The drawing of the note being written: held by the dialog, shared by the layer and the tools. */
export function useDrawing() {
  const [active, setActive] = useState(false);
  const [tool, setTool] = useState<ShapeKind>('arrow');
  const [color, setColor] = useState<ShapeColor>('red');
  const [h, dispatch] = useReducer(history, {
    past: [],
    present: [],
    future: [],
  });
  return {
    active,
    setActive,
    tool,
    setTool,
    color,
    setColor,
    shapes: h.present,
    canUndo: h.past.length > 0,
    canRedo: h.future.length > 0,
    add: (shape: Shape) => dispatch({ type: 'add', shape }),
    undo: () => dispatch({ type: 'undo' }),
    redo: () => dispatch({ type: 'redo' }),
    clear: () => dispatch({ type: 'clear' }),
    /** After the note was sent: nothing drawn, tools closed. */
    reset: () => {
      dispatch({ type: 'reset' });
      setActive(false);
    },
  };
}
export type Drawing = ReturnType<typeof useDrawing>;

// --- The SVG of a list of shapes --------------------------------------------------------------

function ShapeSvg({ shape, w, h, stroke, color, kind }: { shape: Shape; w: number; h: number; stroke: number; color: string; kind?: string }) {
  return (
    <g data-kind={kind} stroke={color} strokeWidth={stroke} strokeLinecap="round" strokeLinejoin="round" fill="none">
      {shapeGeometry(shape, w, h).map((g, i) =>
        g.el === 'path' ? (
          <path key={i} d={g.d} fill={g.fill ? color : 'none'} />
        ) : g.el === 'line' ? (
          <line key={i} x1={g.x1} y1={g.y1} x2={g.x2} y2={g.y2} />
        ) : g.el === 'rect' ? (
          <rect key={i} x={g.x} y={g.y} width={g.width} height={g.height} />
        ) : (
          <ellipse key={i} cx={g.cx} cy={g.cy} rx={g.rx} ry={g.ry} />
        ),
      )}
    </g>
  );
}

/**
 * Shapes over a w × h box. A soft dark shadow (a filter, not a second copy of every stroke, which
 * would double the work of a 2,000-point drawing) keeps white or yellow seen on a light frame.
 * Memoised: the layer re-renders as the playhead moves, the shapes of a note do not change.
 */
export const ShapesSvg = memo(function ShapesSvg({ shapes, w, h, stroke = 3 }: { shapes: readonly Shape[]; w: number; h: number; stroke?: number }) {
  return (
    <g style={{ filter: 'drop-shadow(0 0 1px rgb(0 0 0 / 0.9))' }}>
      {shapes.map((s, i) => (
        <ShapeSvg key={i} shape={s} w={w} h={h} stroke={stroke} color={SHAPE_PALETTE[s.color]} kind={s.kind} />
      ))}
    </g>
  );
});

// --- The layer over the picture ------------------------------------------------------------------

/** The picture's box within the layer's positioned parent, followed through resizes and new media. */
function usePictureBox(anchor: RefObject<SVGSVGElement | null>): [Box | null, HTMLVideoElement | HTMLImageElement | null] {
  const [box, setBox] = useState<Box | null>(null);
  const [media, setMedia] = useState<HTMLVideoElement | HTMLImageElement | null>(null);
  useLayoutEffect(() => {
    const el = anchor.current?.parentElement?.querySelector<HTMLVideoElement | HTMLImageElement>(':scope > video, :scope > img') ?? null;
    setMedia(el);
    if (!el) return;
    const measure = () => {
      const pic = pictureBox({ width: el.clientWidth, height: el.clientHeight }, naturalSize(el));
      const next = {
        left: el.offsetLeft + el.clientLeft + pic.left,
        top: el.offsetTop + el.clientTop + pic.top,
        width: pic.width,
        height: pic.height,
      };
      setBox((cur) => (cur && cur.left === next.left && cur.top === next.top && cur.width === next.width && cur.height === next.height ? cur : next));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    // The picture's own size is known only once the metadata (or image) has loaded, and a new
    // rendition (quality menu) may change it.
    const events = ['loadedmetadata', 'resize', 'load'];
    events.forEach((e) => el.addEventListener(e, measure));
    return () => {
      ro.disconnect();
      events.forEach((e) => el.removeEventListener(e, measure));
    };
  }, [anchor]);
  return [box, media];
}

/** The player's position in ms, followed on seeks, frame steps and playback (0 for an image). */
function usePlayhead(media: HTMLVideoElement | HTMLImageElement | null): number {
  const [ms, setMs] = useState(0);
  useEffect(() => {
    if (!(media instanceof HTMLVideoElement)) return setMs(0);
    const update = () => setMs(Math.round(media.currentTime * 1000));
    update();
    const events = ['timeupdate', 'seeked', 'seeking', 'pause', 'loadedmetadata'];
    events.forEach((e) => media.addEventListener(e, update));
    return () => events.forEach((e) => media.removeEventListener(e, update));
  }, [media]);
  return ms;
}

/**
 * The SVG layer over the picture of its sibling <video> or <img> (both inside one `relative`
 * parent). Shows the drawings of the notes the player stands on (their frame, or range; every
 * note of an image) and the drawing being made; takes the pointer only while drawing, so the
 * picture's click (play or pause) works otherwise.
 */
export function DrawingLayer({ notes, fps, drawing }: { notes: readonly NoteDrawing[]; fps: number | null | undefined; drawing?: Drawing | null }) {
  const svg = useRef<SVGSVGElement>(null);
  const [box, media] = usePictureBox(svg);
  const at = usePlayhead(media);
  const frameMs = 1000 / fpsOf(fps);
  const [stroke, setStroke] = useState<Shape | null>(null);
  const drawingNow = !!drawing?.active && !!box;
  const shown = notes.filter((n) => media instanceof HTMLImageElement || onNote(at, n, frameMs));
  const draft = drawing ? (stroke ? [...drawing.shapes, stroke] : drawing.shapes) : [];

  const point = (e: ReactPointerEvent<SVGSVGElement>): Point => {
    const r = e.currentTarget.getBoundingClientRect();
    return toUnit(e.clientX - r.left, e.clientY - r.top, r);
  };
  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>) => {
    if (!drawing?.active || e.button !== 0 || !fits(drawing.shapes, drawing.tool === 'freehand' ? 1 : 2)) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = point(e);
    setStroke({
      kind: drawing.tool,
      color: drawing.color,
      points: drawing.tool === 'freehand' ? [p] : [p, p],
    });
  };
  /** The shape being made, carried on to `p` (a freehand line gains a point, others move their end). */
  const extendTo = (p: Point) => {
    if (!stroke || !drawing) return;
    if (stroke.kind === 'freehand') {
      const room = MAX_SHAPE_POINTS - pointCount(drawing.shapes);
      const points = extendStroke(stroke.points, p, 0.004, room);
      if (points !== stroke.points) setStroke({ ...stroke, points });
    } else setStroke({ ...stroke, points: [stroke.points[0]!, p] });
  };
  const onPointerMove = (e: ReactPointerEvent<SVGSVGElement>) => {
    if (stroke) extendTo(point(e));
  };
  const onPointerUp = () => {
    if (stroke && drawing && !isDegenerate(stroke)) drawing.add(stroke);
    setStroke(null);
  };

  // Drawing from the keyboard: the layer takes focus while Draw is on; arrow keys move a
  // cursor over the picture (1 % of it, 10 % with Shift), Enter or Space starts a shape where
  // the cursor is and ends it where the cursor has moved (a freehand line follows the cursor),
  // Escape drops the shape being made. Handled keys stop here, so the player's own keys (Space,
  // Shift+arrows, frame steps) do not also act.
  const [cursor, setCursor] = useState<Point>([0.5, 0.5]);
  const [focused, setFocused] = useState(false);
  const moveTo = (p: Point) => {
    setCursor(p);
    extendTo(p);
  };
  const onKeyDown = (e: ReactKeyboardEvent<SVGSVGElement>) => {
    if (!drawing?.active || e.ctrlKey || e.metaKey || e.altKey) return;
    const step = e.shiftKey ? 0.1 : 0.01;
    const [x, y] = cursor;
    const moves: Record<string, Point> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[e.key];
    if (move) moveTo([toUnitCoordinate(x + move[0]), toUnitCoordinate(y + move[1])]);
    else if (e.key === 'Enter' || e.key === ' ') {
      if (stroke) onPointerUp();
      else if (fits(drawing.shapes, drawing.tool === 'freehand' ? 1 : 2)) setStroke({ kind: drawing.tool, color: drawing.color, points: drawing.tool === 'freehand' ? [cursor] : [cursor, cursor] });
    } else if (e.key === 'Escape' && stroke) setStroke(null);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <svg
      ref={svg}
      {...(drawingNow
        ? {
            role: 'application',
            tabIndex: 0,
            'aria-label': `Drawing area, ${stroke ? 'shape started' : 'cursor'} at ${Math.round(cursor[0] * 100)}% across, ${Math.round(cursor[1] * 100)}% down: arrow keys move the cursor (Shift for bigger steps), Enter starts and ends a shape, Escape drops it`,
            onKeyDown,
            onFocus: () => setFocused(true),
            onBlur: () => setFocused(false),
          }
        : { 'aria-hidden': true })}
      data-testid="drawing-layer"
      data-drawing={drawingNow ? 'true' : undefined}
      width={box?.width ?? 0}
      height={box?.height ?? 0}
      viewBox={box ? `0 0 ${box.width} ${box.height}` : undefined}
      className="absolute"
      style={{
        left: box?.left ?? 0,
        top: box?.top ?? 0,
        pointerEvents: drawingNow ? 'auto' : 'none',
        cursor: drawingNow ? 'crosshair' : undefined,
        touchAction: drawingNow ? 'none' : undefined,
        outline: drawingNow ? '2px dashed rgba(255,255,255,0.6)' : undefined,
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setStroke(null)}
    >
      {box &&
        shown.map((n) => (
          <g key={n.key} data-note={n.key}>
            <ShapesSvg shapes={n.shapes} w={box.width} h={box.height} />
          </g>
        ))}
      {box && draft.length > 0 && (
        <g data-note="draft">
          <ShapesSvg shapes={draft} w={box.width} h={box.height} />
        </g>
      )}
      {box && drawingNow && focused && (
        <g data-testid="drawing-cursor" aria-hidden="true" stroke="white" strokeWidth={1.5} style={{ filter: 'drop-shadow(0 0 1px black)' }}>
          <line x1={cursor[0] * box.width - 8} x2={cursor[0] * box.width + 8} y1={cursor[1] * box.height} y2={cursor[1] * box.height} />
          <line x1={cursor[0] * box.width} x2={cursor[0] * box.width} y1={cursor[1] * box.height - 8} y2={cursor[1] * box.height + 8} />
        </g>
      )}
    </svg>
  );
}

/** A positioned frame around a picture, for the layer to sit on (images; ReviewVideo has its own). */
export function PictureFrame({ children, overlay }: { children: ReactNode; overlay?: ReactNode }) {
  return (
    // In a fullscreen player area the picture takes the height the transport leaves.
    <div className="relative [:fullscreen>&]:min-h-0 [:fullscreen>&]:flex-1">
      {children}
      {overlay}
    </div>
  );
}

// --- The tools ----------------------------------------------------------------------------------

const TOOL_LABELS: Record<ShapeKind, string> = {
  freehand: 'Freehand',
  arrow: 'Arrow',
  rect: 'Rectangle',
  ellipse: 'Ellipse',
};
const TOOL_ICONS: Record<ShapeKind, typeof Pencil> = {
  freehand: Pencil,
  arrow: ArrowUpRight,
  rect: Square,
  ellipse: Circle,
};
const COLOR_LABELS: Record<ShapeColor, string> = {
  red: 'Red',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
  blue: 'Blue',
  white: 'White',
};

const toolButton =
  'inline-flex h-8 min-w-8 items-center justify-center gap-1 rounded-md border border-line px-2 text-sm text-fg hover:bg-muted disabled:cursor-not-allowed disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent aria-pressed:bg-accent aria-pressed:text-accent-fg aria-pressed:border-accent';

function typesText(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && (t.isContentEditable || t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'range'].includes(t.type)));
}

/**
 * "Draw" (pauses the video), then the four tools, six colours, undo, redo and clear. Ctrl+Z and
 * Ctrl+Shift+Z (or Ctrl+Y) undo and redo while Draw is on, except in a text
 * field, whose own undo they stay.
 */
export function DrawingTools({ drawing, video }: { drawing: Drawing; video?: RefObject<HTMLVideoElement | null> }) {
  const { active, canUndo, canRedo, undo, redo } = drawing;
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || typesText(e.target)) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) undo();
      else if ((k === 'z' && e.shiftKey) || k === 'y') redo();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, undo, redo]);

  const toggle = () => {
    if (!active) video?.current?.pause();
    drawing.setActive(!active);
  };
  const summary = describeShapes(drawing.shapes);
  return (
    <div className="space-y-2" role="group" aria-label="Drawing on the picture" data-testid="drawing-tools">
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={toolButton} aria-pressed={active} onClick={toggle}>
          <PenLine size={14} aria-hidden="true" />
          Draw
        </button>
        <span className="text-xs text-fg-muted" aria-live="polite" data-testid="drawing-summary">
          {summary ? `Note ${summary}` : active ? 'Drag on the picture to draw, or Tab to it and use the arrow keys and Enter.' : ''}
        </span>
      </div>
      {active && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <div className="flex flex-wrap gap-1" role="group" aria-label="Tool">
            {SHAPE_KINDS.map((k) => {
              const Icon = TOOL_ICONS[k];
              return (
                <button key={k} type="button" className={toolButton} aria-pressed={drawing.tool === k} onClick={() => drawing.setTool(k)} title={TOOL_LABELS[k]}>
                  <Icon size={14} aria-hidden="true" />
                  <span className="sr-only">{TOOL_LABELS[k]}</span>
                </button>
              );
            })}
          </div>
          <div className="flex flex-wrap gap-1" role="group" aria-label="Colour">
            {SHAPE_COLORS.map((c) => (
              <button key={c} type="button" className={`${toolButton} px-1.5`} aria-pressed={drawing.color === c} onClick={() => drawing.setColor(c)} title={COLOR_LABELS[c]}>
                <span className="block h-4 w-4 rounded-full border border-black/40" style={{ background: SHAPE_PALETTE[c] }} aria-hidden="true" />
                <span className="sr-only">{COLOR_LABELS[c]}</span>
              </button>
            ))}
          </div>
          <div className="flex flex-wrap gap-1">
            <button type="button" className={toolButton} onClick={undo} disabled={!canUndo} title="Undo (Ctrl+Z)" aria-keyshortcuts="Control+Z">
              <Undo2 size={14} aria-hidden="true" />
              <span className="sr-only">Undo</span>
            </button>
            <button type="button" className={toolButton} onClick={redo} disabled={!canRedo} title="Redo (Ctrl+Shift+Z)" aria-keyshortcuts="Control+Shift+Z">
              <Redo2 size={14} aria-hidden="true" />
              <span className="sr-only">Redo</span>
            </button>
            <button type="button" className={toolButton} onClick={drawing.clear} disabled={!drawing.shapes.length}>
              <Trash2 size={14} aria-hidden="true" />
              Clear
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

// --- In the note lists ------------------------------------------------------------------------

/** A note's drawing, small, beside its text; the words for screen readers are in DrawingText. */
export function ShapesPreview({ shapes }: { shapes: readonly Shape[] }) {
  if (!shapes.length) return null;
  return (
    <svg width={64} height={36} viewBox="0 0 64 36" aria-hidden="true" className="shrink-0 rounded bg-black" data-testid="drawing-preview">
      <ShapesSvg shapes={shapes} w={64} h={36} stroke={1.5} />
    </svg>
  );
}

/** "with a drawing: 1 arrow" for screen readers (nothing when the note has none). */
export function DrawingText({ shapes }: { shapes: readonly Shape[] }) {
  const text = describeShapes(shapes);
  return text ? <span className="sr-only">{` (${text})`}</span> : null;
}
