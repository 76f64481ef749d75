import { formatTimestamp } from '../../shared/format.ts';
import { smpteTimecode } from '../../shared/schemas/review.ts';

/**
 * A timeline note's time as the documents show it (mm:ss), with the SMPTE timecode of that
 * moment (stored frame rate and start timecode) on hover and for screen readers (issue 16).
 */
export function NoteTime({ seconds, version }: { seconds: number; version: { frameRate: number | null; startTimecode: string | null } | null }) {
  const smpte = version ? smpteTimecode(seconds, version.frameRate, version.startTimecode) : null;
  return (
    <span className="rounded bg-muted px-2 py-0.5 font-mono text-xs tabular-nums" title={smpte ? `Timecode ${smpte}` : undefined} data-smpte={smpte ?? undefined}>
      {formatTimestamp(seconds)}
    </span>
  );
}
