// The release in package.json has its section in CHANGELOG.md (issue 43), so a version bump
// without its notes fails, and the notes cannot name a version that was never set.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../helpers/server.ts';

test('package.json version has a section in CHANGELOG.md, above every older one', () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
  const sections = [...changelog.matchAll(/^## (\S+)/gm)].map((m) => m[1]);
  expect(sections[0]).toBe('Unreleased');
  expect(sections[1], `CHANGELOG.md has no "## ${version}" section below Unreleased`).toBe(version);
});
