// Set-up of every vitest file: once the file's own hooks have run, whatever app process or nginx
// it started and left running (a test that threw before its stop, a server started inside a
// test) is stopped, so nothing outlives the file (tests/helpers/processes.ts); then the
// helpers' temporary folders of the file are removed (tests/helpers/scratch.ts).
import { afterAll } from 'vitest';
import { stopAll } from '../helpers/processes.ts';
import { removeScratchDirs } from '../helpers/scratch.ts';

afterAll(async () => {
  await stopAll();
  removeScratchDirs();
}, 30_000);
