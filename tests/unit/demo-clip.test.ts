// Demo videos look like footage, not test cards (issue 32): a drifting gradient in the item's
// two colours, with its title fading in. Measured on real frames ffmpeg wrote.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { scratchDir } from '../helpers/scratch.ts';

process.env.MEDIA_DIR = scratchDir('studio-demo-');
const { generateDemoClip } = await import('../../src/server/media/ffmpeg.ts');

const dir = scratchDir('demo-clip-');

/** The frame at `at` seconds as raw RGB, 480x270. */
async function frame(file: string, at: number): Promise<Buffer> {
  const png = path.join(dir, `f-${at}.png`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-ss', String(at), '-i', file, '-frames:v', '1', png]);
  return sharp(png).removeAlpha().raw().toBuffer();
}

/** Share of pixels in the middle band (where the title is) that are near white. */
function whiteInMiddle(rgb: Buffer, width = 480, height = 270): number {
  let white = 0;
  let all = 0;
  for (let y = Math.floor(height * 0.4); y < Math.ceil(height * 0.6); y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      all++;
      if (rgb[i]! > 220 && rgb[i + 1]! > 220 && rgb[i + 2]! > 220) white++;
    }
  }
  return white / all;
}

test('a demo clip is the two colours with the title fading in, 3 s at 480x270, quotes and percent kept as text', async () => {
  const out = path.join(dir, 'clip.mp4');
  const title = "Studio's Reel: 100%";
  expect(await generateDemoClip(out, { seconds: 3, width: 480, height: 270, look: { colours: ['#0b1026', '#c2410c'], title }, fallbackPattern: 'testsrc2' })).toBe(true);
  const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', out], { encoding: 'utf8' }));
  expect(probe.streams[0]).toMatchObject({ width: 480, height: 270, codec_name: 'h264' });
  expect(Number(probe.format.duration)).toBeCloseTo(3, 0);
  // No stray title file is left beside the clip.
  expect(fs.readdirSync(dir).filter((f) => f.startsWith('clip'))).toEqual(['clip.mp4']);

  const late = await frame(out, 2.5);
  // Every pixel outside the title is a mix of the two colours (with grain and vignette):
  // a test card's saturated greens, blues and magentas are not.
  const [a, b] = [[0x0b, 0x10, 0x26], [0xc2, 0x41, 0x0c]];
  let off = 0;
  for (let i = 0; i < late.length; i += 3) {
    const [r, g, bl] = [late[i]!, late[i + 1]!, late[i + 2]!];
    if (r > 200 && g > 200 && bl > 200) continue; // the title
    // Distance from the segment a-b (the vignette darkens towards black, also allowed).
    const green = g - (a[1]! + ((r - a[0]!) / (b[0]! - a[0]!)) * (b[1]! - a[1]!));
    if (Math.abs(green) > 45 || bl > 90) off++;
  }
  expect(off / (late.length / 3)).toBeLessThan(0.02);
  // The title is drawn by 2.5 s, and not yet at the start.
  expect(whiteInMiddle(late)).toBeGreaterThan(0.02);
  expect(whiteInMiddle(await frame(out, 0))).toBeLessThan(0.005);
});
