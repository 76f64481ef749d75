import type { MediaVersion } from '../../shared/schemas/review.ts';
import { formatDate } from '../../shared/format.ts';
import { Select } from '../ui/Select.tsx';

/** Picks which version of an item the dialog shows; the current one is marked. */
export function VersionSwitcher({ versions, value, onChange }: { versions: MediaVersion[]; value: number; onChange: (id: number) => void }) {
  if (versions.length < 2) return null;
  const options = [...versions]
    .reverse()
    .map((v) => ({ value: String(v.id), label: `v${v.number}${v.current ? ' (current)' : ''} · ${formatDate(v.createdAt)}` }));
  return (
    <div className="w-full max-w-xs" data-testid="version-switcher">
      <Select label="Version" value={String(value)} options={options} onChange={(e) => onChange(Number(e.target.value))} />
    </div>
  );
}
