import { Columns2, Download } from 'lucide-react';
import type { MediaVersion } from '../../shared/schemas/review.ts';
import { formatDateTime } from '../../shared/format.ts';
import { Button, buttonClass } from '../ui/Button.tsx';
import { Select } from '../ui/Select.tsx';
import { BlockedDownload } from './BlockedDownload.tsx';

/**
 * Picks which version of an item the dialog shows (the current one is marked), with a download
 * of the version picked: older versions stay viewable and downloadable (issue 16).
 */
export function VersionSwitcher({
  versions,
  value,
  onChange,
  onCompare,
}: {
  versions: MediaVersion[];
  value: number;
  onChange: (id: number) => void;
  /** Opens the compare view (issue 30); offered, like the switcher, from two versions on. */
  onCompare?: () => void;
}) {
  if (versions.length < 2) return null;
  const shown = versions.find((v) => v.id === value);
  const options = [...versions]
    .reverse()
    .map((v) => ({ value: String(v.id), label: `v${v.number}${v.current ? ' (current)' : ''} · ${formatDateTime(v.createdAt)}` }));
  return (
    <div className="flex flex-wrap items-end gap-2" data-testid="version-switcher">
      <div className="w-full max-w-xs">
        <Select label="Version" value={String(value)} options={options} onChange={(e) => onChange(Number(e.target.value))} />
      </div>
      {shown?.downloadUrl ? (
        <a href={shown.downloadUrl} download={shown.filename || ''} className={buttonClass('outline', 'md')}>
          <Download size={16} aria-hidden="true" />
          {`Download v${shown.number}`}
        </a>
      ) : shown?.downloadBlockedReason ? (
        <BlockedDownload reason={shown.downloadBlockedReason} label={`Download v${shown.number}`} />
      ) : null}
      {onCompare && (
        <Button variant="outline" onClick={onCompare} data-testid="compare-open">
          <Columns2 size={16} aria-hidden="true" />
          Compare
        </Button>
      )}
    </div>
  );
}
