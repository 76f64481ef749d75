// Which statements the client may send to a read replica (src/db/read-routing.ts, issue 44):
// reads only; anything that writes, however it begins, goes to the primary.
import { expect, test } from 'vitest';
import { readsOnly } from '../../src/db/read-routing.ts';

test.each([
  ['select "id" from "media" where "id" = ?', true],
  ['  SELECT count(*) AS n FROM jobs', true],
  ['WITH recent AS (SELECT id FROM media ORDER BY id DESC LIMIT 5) SELECT * FROM recent', true],
  ['insert into "media" ("title") values (?)', false],
  ['WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) INSERT INTO jobs (kind) SELECT \'transcode\' FROM n', false],
  ['with gone as (select id from media where id = ?) delete from media where id in (select id from gone)', false],
  ['WITH t AS (SELECT 1) UPDATE jobs SET progress = 0', false],
  ['update "jobs" set "progress" = ?', false],
  ['REPLACE INTO settings (key, value) VALUES (?, ?)', false],
  ['PRAGMA foreign_keys = ON', false],
  ['BEGIN IMMEDIATE', false],
])('%s → reads only: %s', (sql, expected) => {
  expect(readsOnly(sql)).toBe(expected);
});
