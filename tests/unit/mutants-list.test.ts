// The planted bugs of tests/mutants (issue 52) stay plantable: every entry's text is in its file
// exactly once and names a test file that exists, so `npm run test:mutants` never skips a bug
// because the code moved on; the run itself (planting and rebuilding) is not part of npm test.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { loadMutants, occurrences } from '../../scripts/mutants.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

const Mutant = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  file: z.string().min(1),
  find: z.string().min(1),
  replace: z.string(),
  test: z.string().regex(/^tests\/(unit|api|e2e)\/.+\.(test|spec)\.ts$/),
  grep: z.string().min(1).optional(),
  project: z.enum(['local', 's3', 'sqld']).optional(),
  source: z.string().min(1),
  area: z.string(),
});

const mutants = loadMutants() as z.infer<typeof Mutant>[];

test('the list of planted bugs is not empty and every id is unique', () => {
  expect(mutants.length).toBeGreaterThan(0);
  const ids = mutants.map((m) => m.id);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
});

test.each(mutants.map((m) => [m.id, m] as const))('%s: plants into its file and names its catching test', (_id, m) => {
  expect(() => Mutant.parse(m)).not.toThrow();
  const file = path.join(ROOT, m.file);
  expect(fs.existsSync(file), `${m.file} does not exist`).toBe(true);
  expect(occurrences(fs.readFileSync(file, 'utf8'), m.find), `"${m.find}" must occur exactly once in ${m.file}`).toBe(1);
  expect(m.replace).not.toBe(m.find);
  const testFile = path.join(ROOT, m.test);
  expect(fs.existsSync(testFile), `${m.test} does not exist`).toBe(true);
  if (m.test.startsWith('tests/e2e/')) expect(m.project).toBeUndefined();
});
