// The editor keys of every review player (issue 30): the pure part, kept apart from React so
// the mapping and the shuttle speeds are tested as a table (tests/unit/player-keys.test.ts).

export type PlayerAction =
  | 'shuttle-forward'
  | 'shuttle-back'
  | 'pause'
  | 'toggle'
  | 'back-second'
  | 'forward-second'
  | 'prev-frame'
  | 'next-frame'
  | 'mark-in'
  | 'mark-out'
  | 'help';

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/**
 * The action of a key press, or null when it is not a player key. Keys with Ctrl, Cmd or Alt
 * belong to the browser and the system; letters count with or without Shift (Caps Lock on).
 * Arrow keys only with Shift: plain arrows belong to the seek bar and the marker strip.
 */
export function playerKeyAction(e: KeyLike): PlayerAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') return e.shiftKey ? (e.key === 'ArrowLeft' ? 'back-second' : 'forward-second') : null;
  switch (e.key.length === 1 ? e.key.toLowerCase() : e.key) {
    case 'l':
      return 'shuttle-forward';
    case 'j':
      return 'shuttle-back';
    case 'k':
      return 'pause';
    case ' ':
      return 'toggle';
    case ',':
      return 'prev-frame';
    case '.':
      return 'next-frame';
    case 'i':
      return 'mark-in';
    case 'o':
      return 'mark-out';
    case '?':
      return 'help';
    default:
      return null;
  }
}

/** The fastest shuttle, either way. */
export const MAX_SHUTTLE = 4;

/**
 * The shuttle's speed after L (forward) or J (back), from what the player does now: a press in
 * the same direction doubles the speed up to 4x, otherwise the shuttle starts at 1x that way.
 * `moving` is the current direction (null when paused) and `rate` its speed.
 */
export function nextShuttle(press: 'forward' | 'back', moving: 'forward' | 'back' | null, rate: number): number {
  if (moving !== press) return 1;
  return Math.min(MAX_SHUTTLE, Math.max(1, rate * 2));
}

/** The speed menu's choices. */
export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

export const speedLabel = (rate: number) => `${rate}x`;

/**
 * What the ? dialog lists, in order: keys, then a gesture (`gesture` in words instead of keys)
 * that does the same as some of them, so it is found where the keys are looked up.
 */
export const KEY_LIST: { keys: string[]; gesture?: string; action: string }[] = [
  { keys: ['L'], action: 'Play; again for 2x, then 4x' },
  { keys: ['J'], action: 'Play backwards; again for 2x, then 4x' },
  { keys: ['K'], action: 'Pause' },
  { keys: ['Space'], action: 'Play or pause' },
  { keys: [','], action: 'One frame back (paused)' },
  { keys: ['.'], action: 'One frame forward (paused)' },
  { keys: ['Shift', '←'], action: 'One second back' },
  { keys: ['Shift', '→'], action: 'One second forward' },
  { keys: ['I'], action: 'Mark in: the note starts here' },
  { keys: ['O'], action: 'Mark out: the note ends here' },
  { keys: [], gesture: 'Drag on the marker strip', action: 'Mark in where the drag starts and out where it ends (under the seek bar)' },
  { keys: ['?'], action: 'Show these keys' },
];
