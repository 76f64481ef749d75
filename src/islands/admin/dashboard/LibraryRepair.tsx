import { useEffect, useState } from 'react';
import { Wrench } from 'lucide-react';
import { apiJson } from '../../../shared/api.ts';
import type { RepairProgress } from '../../../shared/library-repair.ts';

/** How often the card asks again while a repair runs (one small COUNT query). */
const POLL_MS = 5_000;

/**
 * The library check after an upgrade (issue 39): videos made by an older pipeline are checked
 * and, where their pictures were a frame late, made again, newest first. Shown only while that
 * runs; the old files keep playing until their replacements are checked.
 */
export function LibraryRepair({ initial }: { initial: RepairProgress | null }) {
  const [repair, setRepair] = useState(initial);
  const running = repair !== null;
  useEffect(() => {
    if (!running) return;
    let stopped = false;
    const timer = setInterval(() => {
      apiJson<{ repair: RepairProgress | null }>('GET', '/api/jobs/repair')
        .then((r) => !stopped && setRepair(r.repair))
        // A missed poll changes nothing on screen; the next one tries again.
        .catch(() => {});
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [running]);
  if (!repair) return null;
  const pct = repair.total ? Math.floor((repair.done / repair.total) * 100) : 0;
  return (
    <section aria-labelledby="library-repair" data-testid="library-repair" className="flex items-start gap-3 rounded-xl border border-line bg-raised p-4 shadow-sm">
      <span className="rounded-lg bg-muted p-2 text-accent" aria-hidden="true">
        <Wrench size={20} />
      </span>
      <div className="min-w-0 flex-1 space-y-2">
        <h2 id="library-repair" className="font-medium">
          Checking videos after the update
        </h2>
        <p className="text-sm text-fg-muted">
          <span data-testid="library-repair-count">
            {repair.done} of {repair.total}
          </span>{' '}
          videos checked, newest first
          {repair.remade ? `; ${repair.remade} made again so every frame matches its note` : ''}
          {repair.failed ? `; ${repair.failed} could not be made again and keep their old files` : ''}. Videos keep playing meanwhile.
        </p>
        <div className="h-1.5 w-full overflow-hidden rounded-full bg-muted" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Videos checked">
          <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${pct}%` }} />
        </div>
      </div>
    </section>
  );
}
