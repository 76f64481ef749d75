// The marker writers by format (issue 30), with each format's file extension and type.
import { writeCsv } from './csv.ts';
import { writeEdl } from './edl.ts';
import { writeFcpxml } from './fcpxml.ts';
import { writePremiereXml } from './premiere.ts';
import { MARKER_FORMATS, type MarkerFormat, type MarkerNote, type MarkerVersion } from './types.ts';

export { MARKER_FORMATS, type MarkerFormat, type MarkerNote, type MarkerVersion };

export const WRITERS: Record<MarkerFormat, { write: (v: MarkerVersion, n: readonly MarkerNote[]) => string; /** The end of the file name offered, after "Title v2 notes". */
  suffix: string; type: string }> = {
  edl: { write: writeEdl, suffix: ' - Resolve.edl', type: 'text/plain; charset=utf-8' },
  fcpxml: { write: writeFcpxml, suffix: ' - Final Cut.fcpxml', type: 'application/xml; charset=utf-8' },
  premiere: { write: writePremiereXml, suffix: ' - Premiere.xml', type: 'application/xml; charset=utf-8' },
  csv: { write: writeCsv, suffix: '.csv', type: 'text/csv; charset=utf-8; header=present' },
};

export function isMarkerFormat(value: string | null): value is MarkerFormat {
  return value != null && (MARKER_FORMATS as readonly string[]).includes(value);
}
