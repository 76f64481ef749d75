// Which item menu type-ahead focuses (000 §9; WAI-ARIA menu pattern). The browser test in
// tests/e2e/admin-shell.spec.ts covers the keys and the 1000 ms reset on a real menu.
import { describe, expect, test } from 'vitest';
import { arrowTarget, typeaheadMatch } from '../../src/islands/ui/Menu.tsx';

const items = [{ label: 'Dashboard' }, { label: 'Delete Media' }, { label: 'Edit Media' }, { label: 'Download', disabled: true }, { label: 'Duplicate' }];

describe('typeaheadMatch', () => {
  test('a letter finds the first item starting with it, ignoring case', () => {
    expect(typeaheadMatch(items, -1, 'E')).toBe(2);
    expect(typeaheadMatch(items, 0, 'e')).toBe(2);
  });

  test('the same letter again cycles through its items, skipping disabled ones and wrapping', () => {
    expect(typeaheadMatch(items, 0, 'd')).toBe(1);
    expect(typeaheadMatch(items, 1, 'dd')).toBe(4);
    expect(typeaheadMatch(items, 4, 'ddd')).toBe(0);
  });

  test('longer text matches from the current item on, so it can stay put', () => {
    expect(typeaheadMatch(items, 1, 'de')).toBe(1);
    expect(typeaheadMatch(items, 1, 'du')).toBe(4);
    expect(typeaheadMatch(items, 0, 'delete m')).toBe(1);
  });

  test('no match, or only a disabled one, gives -1', () => {
    expect(typeaheadMatch(items, 0, 'x')).toBe(-1);
    expect(typeaheadMatch(items, 0, 'dow')).toBe(-1);
    expect(typeaheadMatch([], -1, 'a')).toBe(-1);
  });

  test('labels are compared without surrounding whitespace', () => {
    expect(typeaheadMatch([{ label: '  Logout ' }], -1, 'log')).toBe(0);
  });
});

describe('arrowTarget', () => {
  // Indexes 0 Dashboard, 1 Delete Media, 2 Edit Media, 3 Download (disabled), 4 Duplicate.
  test.each([
    ['down from the first', 0, 1, 1],
    ['down over a disabled item', 2, 1, 4],
    ['up over a disabled item', 4, -1, 2],
    ['down from the last wraps', 4, 1, 0],
    ['up from the first wraps', 0, -1, 4],
    ['Home', 3, -Infinity, 0],
    ['End', 0, Infinity, 4],
    ['down with nothing focused', -1, 1, 0],
    ['up with nothing focused', -1, -1, 4],
  ])('%s', (_name, current, delta, expected) => {
    expect(arrowTarget(items, current, delta)).toBe(expected);
  });

  test('End skips a disabled last item; all disabled gives -1', () => {
    expect(arrowTarget([{}, { disabled: true }], 0, Infinity)).toBe(0);
    expect(arrowTarget([{ disabled: true }, { disabled: true }], -1, 1)).toBe(-1);
  });
});
