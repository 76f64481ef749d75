import { formatTimestamp } from '../../shared/format.ts';
import { frameTimecode } from './frames.ts';

/**
 * A timeline note's time as the documents show it (mm:ss), with the SMPTE timecode of its exact
 * moment (`ms`, issue 29; else the whole seconds) at the stored frame rate and start timecode on
 * hover and for screen readers (issue 16). One line whatever the space (tabular figures). A range
 * note shows its end too (mm:ss–mm:ss).
 */
export function NoteTime({
  seconds,
  ms,
  endMs,
  version,
}: {
  seconds: number;
  ms?: number | null;
  endMs?: number | null;
  version: { frameRate: number | null; startTimecode: string | null } | null;
}) {
  const smpte = version ? frameTimecode(ms ?? seconds * 1000, version.frameRate, version.startTimecode) : null;
  return (
    <span className="shrink-0 whitespace-nowrap rounded bg-muted px-2 py-0.5 font-mono text-xs tabular-nums" title={smpte ? `Timecode ${smpte}` : undefined} data-smpte={smpte ?? undefined}>
      {formatTimestamp(seconds)}
      {endMs != null && endMs > (ms ?? seconds * 1000) && (
<>–{formatTimestamp(Math.floor(endMs / 1000))}</>
      )}
    </span>
  );
}
