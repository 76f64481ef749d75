// Every earlier schema state has its committed upgrade fixture (issue 43): a new migration makes
// the state before it "earlier", and this fails until `npm run fixtures:upgrade` has made that
// state's library (tests/api/upgrade-fixtures.test.ts then upgrades it in every run).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../helpers/server.ts';
import { fixtureTags } from '../helpers/upgrade.ts';

test('one fixture per migration but the newest, and none for a migration that does not exist', () => {
  const journal = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/db/migrations/meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const earlier = journal.entries.slice(0, -1).map((e) => e.tag);
  expect(fixtureTags(), 'run `npm run fixtures:upgrade` and commit tests/fixtures/upgrade').toEqual(earlier);
});
