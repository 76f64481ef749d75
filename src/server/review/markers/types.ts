// What the marker writers take (issue 30): one version's facts and its notes, already chosen
// (who may see which notes is decided before a writer runs). The writers are pure functions of these.

export interface MarkerVersion {
  /** The item's title: the EDL's TITLE, the FCPXML project's and the Premiere sequence's name. */
  title: string;
  versionNumber: number;
  /** ffprobe's frame rate (null → 25) and start timecode (null → 00:00:00:00). */
  frameRate: number | null;
  startTimecode: string | null;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
}

export interface MarkerNote {
  id: number;
  timestampMs: number;
  /** A range's end (a duration marker); null for a point. */
  endMs: number | null;
  author: string;
  source: 'client' | 'staff' | 'link';
  internal: boolean;
  resolved: boolean;
  text: string;
  /** ISO 8601. */
  createdAt: string;
}

export const MARKER_FORMATS = ['edl', 'fcpxml', 'premiere', 'csv'] as const;
export type MarkerFormat = (typeof MARKER_FORMATS)[number];
