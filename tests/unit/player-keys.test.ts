// The editor keys' pure part (issue 30): which key does what, and the J/L shuttle speeds. The
// browser test tests/e2e/editor-keys.spec.ts drives them in the three review players.
import { expect, test } from 'vitest';
import { nextShuttle, playerKeyAction, type KeyLike } from '../../src/islands/review/keys.ts';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });

test.each([
  ['l', key('l'), 'shuttle-forward'],
  ['L with Caps Lock', key('L', { shiftKey: true }), 'shuttle-forward'],
  ['j', key('j'), 'shuttle-back'],
  ['k', key('k'), 'pause'],
  ['Space', key(' '), 'toggle'],
  [',', key(','), 'prev-frame'],
  ['.', key('.'), 'next-frame'],
  ['Shift+←', key('ArrowLeft', { shiftKey: true }), 'back-second'],
  ['Shift+→', key('ArrowRight', { shiftKey: true }), 'forward-second'],
  ['i', key('i'), 'mark-in'],
  ['o', key('O'), 'mark-out'],
  ['?', key('?', { shiftKey: true }), 'help'],
  // The seek bar and the marker strip keep plain arrows.
  ['plain ←', key('ArrowLeft'), null],
  ['plain →', key('ArrowRight'), null],
  // The browser's and the system's shortcuts are left alone.
  ['Ctrl+L', key('l', { ctrlKey: true }), null],
  ['Cmd+K', key('k', { metaKey: true }), null],
  ['Alt+J', key('j', { altKey: true }), null],
  ['Ctrl+Shift+→', key('ArrowRight', { shiftKey: true, ctrlKey: true }), null],
  ['an unbound letter', key('x'), null],
  ['Enter', key('Enter'), null],
  ['Escape', key('Escape'), null],
])('%s', (_name, e, expected) => {
  expect(playerKeyAction(e)).toBe(expected);
});

test.each([
  ['L from paused', 'forward', null, 1, 1],
  ['L while playing 1x', 'forward', 'forward', 1, 2],
  ['L at 2x', 'forward', 'forward', 2, 4],
  ['L at 4x stays 4x', 'forward', 'forward', 4, 4],
  ['L at 0.5x from the speed menu', 'forward', 'forward', 0.5, 1],
  ['L while going back starts forward at 1x', 'forward', 'back', 4, 1],
  ['J from paused', 'back', null, 1, 1],
  ['J again', 'back', 'back', 1, 2],
  ['J at 2x', 'back', 'back', 2, 4],
  ['J at 4x stays 4x', 'back', 'back', 4, 4],
  ['J while playing forward starts back at 1x', 'back', 'forward', 2, 1],
] as const)('%s', (_name, press, moving, rate, expected) => {
  expect(nextShuttle(press, moving, rate)).toBe(expected);
});
