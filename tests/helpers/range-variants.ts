// Range headers as players, download tools and hand-made requests send them (issue 40), each
// with the answer of the app alone and of the shipped nginx (ACCEL_REDIRECT), and whether a
// share link writes the transfer as a download. The rule under test: every answer that may
// start at byte 0 is logged; a range that surely starts later (a player seeking) is not.
// `from` is the first byte the answer sends (the lowest of a multipart answer's parts).
export interface Answer {
  status: 200 | 206 | 416;
  from: number | null;
}

export interface RangeVariant {
  name: string;
  header: (size: number) => string;
  app: (size: number) => Answer;
  nginx: (size: number) => Answer;
  logged: boolean;
}

const whole = (): Answer => ({ status: 200, from: 0 });
const part = (from: number | ((size: number) => number)) => (size: number): Answer => ({ status: 206, from: typeof from === 'number' ? from : from(size) });
const refused = (): Answer => ({ status: 416, from: null });

export const RANGE_VARIANTS: RangeVariant[] = [
  // A space before "=": not a range for RFC 9110 nor for nginx, which sends the whole file.
  { name: 'bytes =1- (space before =)', header: () => 'bytes =1-', app: whole, nginx: whole, logged: true },
  { name: 'bytes=1-', header: () => 'bytes=1-', app: part(1), nginx: part(1), logged: false },
  { name: 'Bytes=1- (unit in capitals)', header: () => 'Bytes=1-', app: part(1), nginx: part(1), logged: false },
  // Leading whitespace is not part of a field value: read as bytes=0-.
  { name: ' bytes=0- (leading space)', header: () => ' bytes=0-', app: part(0), nginx: part(0), logged: true },
  { name: 'bytes=0-99', header: () => 'bytes=0-99', app: part(0), nginx: part(0), logged: true },
  { name: 'bytes=-5 (the last 5 bytes)', header: () => 'bytes=-5', app: part((s) => s - 5), nginx: part((s) => s - 5), logged: false },
  { name: 'bytes=-N, N beyond the size (the whole file)', header: (s) => `bytes=-${s + 10}`, app: part(0), nginx: part(0), logged: true },
  // A space inside the range: not RFC 9110 (the app sends all and logs); nginx skips it and sends from 1.
  { name: 'bytes=1 - (space inside)', header: () => 'bytes=1 -', app: whole, nginx: part(1), logged: true },
  // Several ranges: the app sends the whole file; nginx a multipart answer, which may hold byte 0.
  { name: 'bytes=0-1,4-5 (several, from 0)', header: () => 'bytes=0-1,4-5', app: whole, nginx: part(0), logged: true },
  { name: 'bytes=2-3,6-7 (several, later)', header: () => 'bytes=2-3,6-7', app: whole, nginx: part(2), logged: true },
  { name: 'bytes=5-2 (last before first)', header: () => 'bytes=5-2', app: whole, nginx: refused, logged: true },
  { name: 'bytes=abc (garbage)', header: () => 'bytes=abc', app: whole, nginx: refused, logged: true },
  { name: 'items=0-10 (another unit)', header: () => 'items=0-10', app: whole, nginx: whole, logged: true },
  { name: 'beyond the end', header: (s) => `bytes=${s}-`, app: refused, nginx: refused, logged: false },
];

/** The first byte an answer sent: 0 for a whole file, a part's start, a multipart answer's lowest. */
export async function firstByteSent(res: Response): Promise<number | null> {
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status === 200) return 0;
  if (res.status !== 206) return null;
  const single = res.headers.get('content-range');
  if (single) return Number(/^bytes (\d+)-/.exec(single)![1]);
  const starts = [...body.toString('latin1').matchAll(/Content-Range: bytes (\d+)-\d+\/\d+/gi)].map((m) => Number(m[1]));
  if (!/^multipart\/byteranges/.test(res.headers.get('content-type') ?? '') || !starts.length) throw new Error('206 without a Content-Range');
  return Math.min(...starts);
}
