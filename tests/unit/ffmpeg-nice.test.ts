// Conversions run under `nice -n FFMPEG_NICE` (issue 43) so the web stays quick while they
// run; 0 runs ffmpeg itself. The test servers use 0 (tests/helpers/server.ts), so this is
// where the production default's command is checked, and that nice really lowers ffmpeg's
// priority.
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';

process.env.FFMPEG_NICE = '7';
const { ffmpegCommand } = await import('../../src/server/jobs/ffmpeg-run.ts');
const { config } = await import('../../src/server/config.ts');

test('ffmpeg is started through nice at FFMPEG_NICE, and nice execs it at that priority', () => {
  const [cmd, args] = ffmpegCommand(['-version'], 2);
  expect(cmd).toBe('nice');
  expect(args.slice(0, 3)).toEqual(['-n', '7', config.FFMPEG_PATH]);
  expect(args).toEqual(expect.arrayContaining(['-threads', '2', '-version']));
  // The same wrapper around a command that reports its own niceness.
  const reported = execFileSync(cmd, [...args.slice(0, 2), 'nice'], { encoding: 'utf8' }).trim();
  expect(Number(reported)).toBe(Number(execFileSync('nice', { encoding: 'utf8' }).trim()) + 7);
});

test('FFMPEG_NICE=0 starts ffmpeg directly', () => {
  config.FFMPEG_NICE = 0;
  const [cmd, args] = ffmpegCommand(['-version']);
  expect(cmd).toBe(config.FFMPEG_PATH);
  expect(args.at(-1)).toBe('-version');
});
