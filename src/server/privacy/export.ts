// A client's data as a ZIP (issue 56, the right of access): each table of client-records.ts as
// JSON and as CSV, and a README naming them, through the streaming ZIP writer of the galleries.
// The export is a row of the audit log.
import { db } from '../../db/index.ts';
import { notFound } from '../http.ts';
import { contentDisposition, cleanName } from '../media/delivery.ts';
import { currentNodeResponse } from '../media/node-response.ts';
import { pacedChunks } from '../media/paced-stream.ts';
import { zipStream, type ZipEntry } from '../proofing/zip.ts';
import { csvLine } from '../csv.ts';
import { audit, type AuditOrigin } from '../audit/record.ts';
import { clientLogins, clientRecords, type Dataset } from './client-records.ts';

async function* once(chunk: Uint8Array): AsyncGenerator<Uint8Array> {
  yield chunk;
}

const bytes = (text: string) => ({
  async open() {
    return once(new TextEncoder().encode(text));
  },
});

const csvOf = (d: Dataset) => csvLine(d.columns) + d.rows.map((r) => csvLine(d.columns.map((c) => r[c] as string | number | null))).join('');

function readme(name: string, at: Date, sets: Dataset[]): string {
  return [
    `Everything the studio holds about ${name}, exported ${at.toISOString()}.`,
    'Each table is here twice: NAME.json (for programs) and NAME.csv (for spreadsheets). Times are UTC.',
    '',
    ...sets.map((d) => `${d.name}: ${d.about} (${d.rows.length} row${d.rows.length === 1 ? '' : 's'})`),
    '',
  ].join('\r\n');
}

export async function clientExportResponse(clientId: number, origin: AuditOrigin): Promise<Response> {
  const logins = await clientLogins(clientId);
  if (!logins) throw notFound('Client not found');
  const sets = await clientRecords(clientId, logins);
  const name = String(sets[0]!.rows[0]?.name ?? `Client ${clientId}`);
  await audit(db, origin, { kind: 'client.exported', object: { type: 'client', id: clientId, name }, detail: { tables: sets.length, rows: sets.reduce((n, d) => n + d.rows.length, 0) } });
  const at = new Date();
  const entries: ZipEntry[] = [
    { name: 'README.txt', mtime: at, ...bytes(readme(name, at, sets)) },
    ...sets.flatMap((d) => [
      { name: `${d.name}.json`, mtime: at, ...bytes(JSON.stringify(d.rows, null, 2)) },
      { name: `${d.name}.csv`, mtime: at, ...bytes(csvOf(d)) },
    ]),
  ];
  const archive = zipStream(entries);
  const file = `${cleanName(name) || 'client'} - data ${at.toISOString().slice(0, 10)}.zip`;
  return new Response(pacedChunks(archive, currentNodeResponse(), () => void archive.return(undefined)), {
    headers: { 'Content-Type': 'application/zip', 'Content-Disposition': contentDisposition(file), 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
  });
}
