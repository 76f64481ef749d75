// Issue 34: every environment variable src/server/config.ts reads is described in
// docs/configuration.md. The keys come from the zod schema itself, not from the file's text.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { configSchema } from '../../src/server/config.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const page = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');

/** The names the page sets in code (`NAME` or `NAME=value`), where a reader looks for a variable. */
const documented = new Set([...page.matchAll(/`([A-Z][A-Z0-9_]*)(?:=[^`]*)?`/g)].map((m) => m[1]));

test('the schema is read: it has the variables the app has long had', () => {
  const keys = Object.keys(configSchema.shape);
  expect(keys).toContain('PORT');
  expect(keys).toContain('DATABASE_URL');
  expect(keys.length).toBeGreaterThan(40);
});

test('docs/configuration.md names every variable of the config schema', () => {
  const missing = Object.keys(configSchema.shape).filter((key) => !documented.has(key));
  expect(missing, `add these to docs/configuration.md as \`NAME\``).toEqual([]);
});
