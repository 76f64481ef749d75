// The live review strip above a review player (issue 41): "Review live" for staff, "Join" when
// a session is open on the item, and once joined who is there and at which frame, following or
// not, the presenter's controls (give control, end), the starter's (take control back) and
// everyone's (break away / follow again, laser pointer, leave). After the end, the summary.
import { useEffect, useRef } from 'react';
import { Crosshair, Radio, UserCheck, Users } from 'lucide-react';
import { Button } from '../ui/Button.tsx';
import { formatFrameTime } from '../review/frames.ts';
import type { LiveSession } from './useLiveSession.ts';

const KIND_LABEL = { staff: 'Studio', client: 'Client', guest: 'Guest' } as const;

export function LivePanel({
  session,
  fps,
  canStart = false,
  autoJoin = false,
  versionMismatch = null,
}: {
  session: LiveSession;
  fps: number | null | undefined;
  /** Staff: start one ("Review live"). */
  canStart?: boolean;
  /** Join at once when a session is open (the viewer came from the live banner). */
  autoJoin?: boolean;
  /** Said when the presenter shows a version this screen cannot (a share page shows the current one only). */
  versionMismatch?: string | null;
}) {
  const s = session;
  const tried = useRef(false);
  useEffect(() => {
    if (autoJoin && s.open && !s.joined && !tried.current) {
      tried.current = true;
      void s.join();
    }
  }, [autoJoin, s.open, s.joined]);

  if (!s.joined) {
    if (s.ended) {
      const people = s.ended.participants.length;
      return (
        <div role="status" data-testid="live-summary" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-line bg-muted/50 p-3 text-sm">
          <span>
            {`Live review ended: ${people} ${people === 1 ? 'person' : 'people'} (${s.ended.participants.map((p) => p.name).join(', ')}), ${s.ended.notes} ${s.ended.notes === 1 ? 'note' : 'notes'}.`}
          </span>
          <Button variant="ghost" size="sm" onClick={s.dismissSummary}>
            Dismiss
          </Button>
        </div>
      );
    }
    if (s.open) {
      return (
        <div role="region" aria-label="Live review" data-testid="live-banner" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-accent/60 bg-accent/10 p-3 text-sm">
          <span className="flex items-center gap-2">
            <Radio size={16} aria-hidden="true" className="text-accent" />
            {`Live review in progress, presented by ${s.open.presenterName}.`}
          </span>
          <Button size="sm" onClick={() => void s.join()} disabled={s.busy}>
            Join live review
          </Button>
        </div>
      );
    }
    if (canStart) {
      return (
        <div className="flex justify-end">
          <Button variant="outline" size="sm" onClick={() => void s.start()} disabled={s.busy} data-testid="review-live">
            <Radio size={14} aria-hidden="true" /> Review live
          </Button>
        </div>
      );
    }
    return null;
  }

  const presenterName = s.participants.find((p) => p.id === s.presenter)?.name ?? 'the presenter';
  const present = s.participants.filter((p) => p.present);
  return (
    <section aria-label="Live review" data-testid="live-panel" className="space-y-2 rounded-lg border border-accent/60 bg-accent/5 p-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2 font-medium" aria-live="polite" data-testid="live-status">
          <Radio size={16} aria-hidden="true" className="text-accent" />
          {s.presenting ? 'Live review: you are presenting' : s.following ? `Live review: following ${presenterName}` : 'Live review: you are on your own'}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          {!s.presenting &&
            (s.following ? (
              <Button variant="outline" size="sm" onClick={s.breakAway}>
                Break away
              </Button>
            ) : (
              <Button size="sm" onClick={s.follow}>
                Follow again
              </Button>
            ))}
          {s.canTakeBack && (
            <Button variant="outline" size="sm" onClick={() => void s.takeBack()}>
              Take control back
            </Button>
          )}
          <Button variant="outline" size="sm" aria-pressed={s.laser} onClick={() => s.setLaser(!s.laser)}>
            <Crosshair size={14} aria-hidden="true" /> Laser pointer
          </Button>
          {s.presenting || s.canEnd ? (
            <Button variant="destructive" size="sm" onClick={() => void s.end()}>
              End live review
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => void s.leave()}>
            Leave
          </Button>
        </div>
      </div>
      {versionMismatch && (
        <p role="status" className="text-fg-muted">
          {versionMismatch}
        </p>
      )}
      <ul aria-label={`${present.length} in the live review`} className="flex flex-wrap gap-2" data-testid="live-participants">
        {present.map((p) => (
          <li key={p.id} className="flex items-center gap-1.5 rounded-full border border-line bg-raised px-2 py-1 text-xs" data-testid="live-participant">
            {p.presenter ? <UserCheck size={12} aria-hidden="true" className="text-accent" /> : <Users size={12} aria-hidden="true" />}
            <span className="font-medium">{p.name}</span>
            <span className="text-fg-muted">
              {`${KIND_LABEL[p.kind]}${p.id === s.me ? ' (you)' : ''} · ${p.presenter ? 'presenting' : p.following ? 'following' : 'on their own'}`}
              {!p.following && !p.presenter && p.frame !== null ? ` at ${formatFrameTime((p.frame * 1000) / (fps || 25), fps)}` : ''}
              {(p.presenter || p.following) && s.state ? ` at ${formatFrameTime((s.state.frame * 1000) / (fps || 25), fps)}` : ''}
            </span>
            {s.presenting && !p.presenter && (
              <button type="button" onClick={() => void s.handOver(p.id)} className="rounded px-1 text-accent underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent">
                {`Give control to ${p.name}`}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
