// Display rules of the portal (001 §2, §9): formatted times, sizes in MB, the 7-day window.
import { describe, expect, test } from 'vitest';
import { downloadHref, formatSize, formatTime, isRecent, stageLabel } from '../../src/islands/portal/format.ts';

describe('portal formatting', () => {
  test.each([
    [0, '00:00'],
    [2.7, '00:02'],
    [59.99, '00:59'],
    [61, '01:01'],
    [3599, '59:59'],
    [3661, '1:01:01'],
    [-5, '00:00'],
    [Number.NaN, '00:00'],
  ])('formatTime(%s) → %s', (s, expected) => expect(formatTime(s)).toBe(expected));

  test.each([
    [0, 'Unknown'],
    [null, 'Unknown'],
    [1024 * 1024, '1.00 MB'],
    [1536 * 1024, '1.50 MB'],
    [2500 * 1024 * 1024, '2500.00 MB'],
  ])('formatSize(%s) → %s', (bytes, expected) => expect(formatSize(bytes)).toBe(expected));

  test('recent means created within the last 7 days', () => {
    const now = Date.parse('2026-06-10T12:00:00Z');
    expect(isRecent('2026-06-03T12:00:01Z', now)).toBe(true);
    expect(isRecent('2026-06-03T11:59:59Z', now)).toBe(false);
  });

  test('stage label or Not specified; download links ask for an attachment', () => {
    expect(stageLabel(null)).toBe('Not specified');
    expect(stageLabel('post-production')).toBe('Post-production');
    expect(downloadHref('/media/abc/original.mp4')).toBe('/media/abc/original.mp4?download=1');
  });
});
