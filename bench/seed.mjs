// Seeds a large library straight into the database with multi-row INSERTs (no API, no files):
// the shape GET /api/media and /admin/media must stay fast with.
import { randomBytes } from 'node:crypto';

const BATCH = 500;

/** Multi-row INSERTs of BATCH rows each, in one transaction. */
async function insertRows(sql, table, columns, rows) {
  const statements = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    const marks = `(${columns.map(() => '?').join(', ')})`;
    statements.push({
      sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => marks).join(', ')}`,
      args: chunk.flat(),
    });
  }
  await sql.batch(statements, 'write');
}

export async function seedLibrary(sql, { media = 10_000, clients = 500 } = {}) {
  const clientRows = Array.from({ length: clients }, (_, i) => [`Bench Client ${i + 1}`, `client${i + 1}@bench.test`, 'Bench Ltd']);
  await insertRows(sql, 'clients', ['name', 'email', 'company'], clientRows);
  const ids = (await sql.execute('SELECT id FROM clients ORDER BY id')).rows.map((r) => Number(r.id));
  const stages = ['concept', 'production', 'post-production', 'delivered', null];
  const now = Date.now();
  const mediaRows = Array.from({ length: media }, (_, i) => {
    const key = randomBytes(16).toString('hex');
    const video = i % 3 === 0;
    return [
      `Bench item ${i + 1}`,
      video ? 'video' : 'image',
      key,
      `/media/${key}/original.${video ? 'mp4' : 'jpg'}`,
      video ? null : `/media/${key}/thumb.jpg`,
      `item-${i + 1}.${video ? 'mp4' : 'jpg'}`,
      1_000_000 + i,
      video ? 'video/mp4' : 'image/jpeg',
      JSON.stringify(['bench', `tag${i % 20}`]),
      stages[i % stages.length],
      i % 7 === 0 ? `Notes for item ${i + 1}` : null,
      i % 4 === 0 ? ids[i % ids.length] : null,
      i % 50 === 0 ? 1 : 0,
      i % 10 === 0 ? 1 : 0,
      now - i * 60_000,
      now - i * 60_000,
    ];
  });
  await insertRows(
    sql,
    'media',
    ['title', 'type', 'storage_key', 'url', 'thumbnail_url', 'filename', 'file_size', 'mime_type', 'tags', 'project_stage', 'notes', 'client_id', 'is_featured', 'show_in_portfolio', 'created_at', 'uploaded_at'],
    mediaRows,
  );
  // A quarter of the items are also linked to a second client.
  const mediaIds = (await sql.execute('SELECT id FROM media ORDER BY id')).rows.map((r) => Number(r.id));
  const links = mediaIds.filter((_, i) => i % 4 === 1).map((id, i) => [id, ids[(i * 7) % ids.length]]);
  await insertRows(sql, 'media_clients', ['media_id', 'client_id'], links);
}

