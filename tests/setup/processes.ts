// Set-up of every vitest file: once the file's own hooks have run, whatever app process or nginx
// it started and left running (a test that threw before its stop, a server started inside a
// test) is stopped, so nothing outlives the file (tests/helpers/processes.ts); then the
// helpers' temporary folders of the file are removed (tests/helpers/scratch.ts). It also counts
// where the file's time goes when STUDIO_TEST_TIMES is set (tests/helpers/timing.ts).
import { afterAll, beforeAll, expect } from 'vitest';
import { stopAll } from '../helpers/processes.ts';
import { removeScratchDirs } from '../helpers/scratch.ts';
import { beginTestFile, endTestFile } from '../helpers/timing.ts';

// Listed last in each project's setupFiles, after the set-up that names its driver.
const project = process.env.STUDIO_TEST_S3 ? 's3' : process.env.STUDIO_TEST_SQLD ? 'sqld' : 'local';

beforeAll(() => {
  beginTestFile(project, expect.getState().testPath ?? '?');
});

afterAll(async () => {
  await stopAll();
  removeScratchDirs();
  endTestFile();
}, 30_000);
