// Editing a caption track in the browser (issue 54 item 3): cue text, in and out points nudged by
// one frame of the film, split, merge, add, delete, shift everything by an offset, with the
// subtitlers' reading checks as warnings (src/shared/caption-checks.ts). Saving writes the whole
// track as its next revision; History lists every revision with its author, what changed, and
// brings any back. Loaded only when staff open it (CaptionsPanel), so players never carry it.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ArrowLeft, History, Merge, Plus, Scissors, Trash2 } from 'lucide-react';
import { ApiError, apiJson, errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import { formatDate } from '../../shared/format.ts';
import { FALLBACK_FPS, READING_CHECKS, describeWarning, readingWarnings } from '../../shared/caption-checks.ts';
import type { CaptionDiff, CaptionEditorState, CaptionRevisionInfo } from '../../shared/schemas/captions.ts';
import { Button } from '../ui/Button.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { inputClass } from '../ui/Field.tsx';
import { captionsChanged } from './useCaptions.tsx';

interface EditCue {
  key: number;
  startMs: number;
  endMs: number;
  text: string;
  settings: string;
}

const PAGE = 50;
let nextKey = 1;
const withKeys = (cues: CaptionEditorState['cues']): EditCue[] => cues.map((c) => ({ ...c, key: nextKey++ }));

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** A cue time to the millisecond: 00:02.520 (1:00:02.520 past an hour). */
function clock(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  return `${h ? `${h}:` : ''}${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** The film's frame a time shows (as the server puts cues on frames), and a frame's time. */
const frameOf = (ms: number, fps: number) => Math.max(0, Math.ceil(((ms - 0.5) * fps) / 1000));
const timeOf = (frame: number, fps: number) => Math.floor((Math.max(0, frame) * 1000) / fps);

/** Where a cue's text splits: at its line break, else at the space nearest its middle. */
function splitText(text: string): [string, string] {
  const lines = text.split('\n');
  if (lines.length > 1) {
    const half = Math.ceil(lines.length / 2);
    return [lines.slice(0, half).join('\n'), lines.slice(half).join('\n')];
  }
  const mid = text.length / 2;
  let at = -1;
  for (let i = 0; i < text.length; i++) if (text[i] === ' ' && (at < 0 || Math.abs(i - mid) < Math.abs(at - mid))) at = i;
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}

export default function CaptionEditor({ mediaId, trackId, canEdit, onClose }: { mediaId: number; trackId: number; canEdit: boolean; onClose: () => void }) {
  const base = `/api/media/${mediaId}/captions/${trackId}`;
  const [state, setState] = useState<CaptionEditorState | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [cues, setCues] = useState<EditCue[]>([]);
  const [dirty, setDirty] = useState(false);
  const [page, setPage] = useState(0);
  const [shift, setShift] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [view, setView] = useState<'cues' | 'history'>('cues');
  const [leaving, setLeaving] = useState(false);

  const opened = useCallback((s: CaptionEditorState) => {
    setState(s);
    setCues(withKeys(s.cues));
    setDirty(false);
    setSaveError(null);
  }, []);
  const load = useCallback(async () => {
    setLoadError(null);
    try {
      opened(await apiJson<CaptionEditorState>('GET', `${base}/cues`));
    } catch (e) {
      setLoadError(errorMessage(e, 'The captions could not be opened.'));
    }
  }, [base, opened]);
  useEffect(() => void load(), [load]);

  const fps = state?.fps ?? FALLBACK_FPS;
  const warnings = useMemo(() => readingWarnings(cues, fps), [cues, fps]);
  const warned = warnings.filter((w) => w.length).length;
  const pages = Math.max(1, Math.ceil(cues.length / PAGE));
  const shown = cues.slice(page * PAGE, page * PAGE + PAGE);

  const edit = (next: EditCue[]) => {
    setCues(next);
    setDirty(true);
    setSaveError(null);
  };
  const change = (key: number, patch: Partial<EditCue>) => edit(cues.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  const nudge = (c: EditCue, edge: 'startMs' | 'endMs', frames: number) => {
    const t = timeOf(frameOf(c[edge], fps) + frames, fps);
    if (edge === 'startMs' ? t >= c.endMs : t <= c.startMs) return;
    change(c.key, { [edge]: t });
  };
  const split = (c: EditCue) => {
    const mid = timeOf(frameOf((c.startMs + c.endMs) / 2, fps), fps);
    if (mid <= c.startMs || mid >= c.endMs) return;
    const [a, b] = splitText(c.text);
    const i = cues.indexOf(c);
    edit([...cues.slice(0, i), { ...c, endMs: mid, text: a }, { ...c, key: nextKey++, startMs: mid, text: b }, ...cues.slice(i + 1)]);
  };
  const mergeNext = (c: EditCue) => {
    const i = cues.indexOf(c);
    const n = cues[i + 1];
    if (!n) return;
    edit([...cues.slice(0, i), { ...c, endMs: Math.max(c.endMs, n.endMs), text: `${c.text}\n${n.text}` }, ...cues.slice(i + 2)]);
  };
  const addAfter = (c: EditCue | null) => {
    const i = c ? cues.indexOf(c) : cues.length - 1;
    const prev = cues[i];
    const start = prev ? timeOf(frameOf(prev.endMs, fps) + READING_CHECKS.minGapFrames, fps) : 0;
    const next = cues[i + 1];
    const end = Math.min(start + 2000, next ? next.startMs - 1 : start + 2000, state?.durationMs ?? Infinity);
    edit([...cues.slice(0, i + 1), { key: nextKey++, startMs: start, endMs: Math.max(end, start + 1), text: '', settings: '' }, ...cues.slice(i + 1)]);
    setPage(Math.floor((i + 1) / PAGE));
  };
  const remove = (c: EditCue) => edit(cues.filter((x) => x.key !== c.key));
  const shiftAll = () => {
    const ms = Math.round(Number(shift));
    if (!Number.isFinite(ms) || ms === 0) return;
    if (cues.some((c) => c.startMs + ms < 0)) {
      setSaveError(`Shifting by ${ms} ms would move the first cue before the start of the film`);
      return;
    }
    edit(cues.map((c) => ({ ...c, startMs: c.startMs + ms, endMs: c.endMs + ms })));
    setShift('');
  };

  const save = async () => {
    if (!state) return;
    const empty = cues.findIndex((c) => c.text.trim() === '');
    if (empty >= 0) {
      setSaveError(`Cue ${empty + 1} has no text: write it or delete the cue`);
      setPage(Math.floor(empty / PAGE));
      return;
    }
    setSaving(true);
    setSaveError(null);
    try {
      const next = await apiJson<CaptionEditorState>('PUT', `${base}/cues`, {
        baseRevisionId: state.track.revisionId,
        cues: cues.map(({ startMs, endMs, text, settings }) => ({ startMs, endMs, text, settings })),
      });
      opened(next);
      captionsChanged();
      toast({ title: `Captions saved as revision ${next.track.revision}`, description: `${next.cues.length} cue${next.cues.length === 1 ? '' : 's'}.` });
    } catch (e) {
      // A 409 (someone saved first) keeps the edits here: nothing is lost.
      setSaveError(errorMessage(e));
      if (e instanceof ApiError && e.status !== 409) toast({ title: 'Captions not saved', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  if (loadError) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-2 text-sm">
        <span>{loadError}</span>
        <Button variant="outline" size="sm" onClick={() => void load()}>
          Retry
        </Button>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Back
        </Button>
      </div>
    );
  }
  if (!state) {
    return (
      <div aria-busy="true" aria-label="Opening the captions" className="space-y-2">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }

  return (
    <div className="space-y-3" data-testid="caption-editor">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="ghost" size="sm" onClick={() => (dirty ? setLeaving(true) : onClose())}>
          <ArrowLeft size={14} aria-hidden="true" /> Tracks
        </Button>
        <h4 className="text-sm font-semibold">
          {`${state.track.label} · revision ${state.track.revision}`}
          {dirty && <span className="ml-2 text-xs font-normal text-amber-700 dark:text-amber-400">Unsaved changes</span>}
        </h4>
        <Button variant="outline" size="sm" aria-pressed={view === 'history'} onClick={() => setView(view === 'history' ? 'cues' : 'history')}>
          <History size={14} aria-hidden="true" /> {view === 'history' ? 'Cues' : 'History'}
        </Button>
      </div>

      {view === 'history' ? (
        <RevisionHistory base={base} revisions={state.revisions} canEdit={canEdit} dirty={dirty} onReverted={(s) => (opened(s), captionsChanged(), setView('cues'))} />
      ) : (
        <>
          <p className="text-xs text-fg-muted" data-testid="reading-checks">
            {`Reading checks: at most ${READING_CHECKS.maxLines} lines of ${READING_CHECKS.maxLineChars} characters, ${READING_CHECKS.maxCharsPerSecond} characters a second, ${(READING_CHECKS.minDurationMs / 1000).toFixed(3)} s on screen and ${READING_CHECKS.minGapFrames} frames between cues (Netflix Timed Text Style Guide). `}
            <strong>{warned === 0 ? 'Every cue passes.' : `${warned} cue${warned === 1 ? '' : 's'} with warnings.`}</strong>
            {` Nudges move one frame (${state.fps ? `${Math.round(state.fps * 1000) / 1000} fps` : `${FALLBACK_FPS} fps assumed`}).`}
          </p>
          {canEdit && (
            <div className="flex flex-wrap items-end gap-2">
              <label className="flex flex-col gap-1 text-xs">
                Shift all cues (ms, minus for earlier)
                <input
                  inputMode="numeric"
                  value={shift}
                  onChange={(e) => setShift(e.target.value.replace(/[^\d-]/g, ''))}
                  onKeyDown={(e) => e.key === 'Enter' && shiftAll()}
                  placeholder="-500"
                  className={inputClass(false, 'w-28')}
                />
              </label>
              <Button variant="outline" size="sm" onClick={shiftAll} disabled={!shift || shift === '-'}>
                Shift
              </Button>
              <Button variant="outline" size="sm" onClick={() => addAfter(null)}>
                <Plus size={14} aria-hidden="true" /> Add cue at the end
              </Button>
              <Button size="sm" className="ml-auto" disabled={!dirty || saving} onClick={() => void save()}>
                {saving ? 'Saving…' : `Save as revision ${(state.revisions[0]?.number ?? state.track.revision) + 1}`}
              </Button>
            </div>
          )}
          {saveError && (
            <p role="alert" className="rounded-md border border-red-600/50 bg-red-500/10 p-2 text-sm text-red-700 dark:text-red-300">
              {saveError}
            </p>
          )}
          <ol className="space-y-2" aria-label="Cues">
            {shown.map((c) => {
              const i = cues.indexOf(c);
              const w = warnings[i] ?? [];
              const n = i + 1;
              return (
                <li key={c.key} className={`rounded-md border p-2 text-sm ${w.length ? 'border-amber-500/70' : 'border-line'}`} data-testid="caption-cue">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <span className="w-8 font-mono text-xs text-fg-muted">{n}</span>
                    <TimeNudge label={`Cue ${n} start`} ms={c.startMs} disabled={!canEdit} onNudge={(d) => nudge(c, 'startMs', d)} />
                    <span aria-hidden="true">→</span>
                    <TimeNudge label={`Cue ${n} end`} ms={c.endMs} disabled={!canEdit} onNudge={(d) => nudge(c, 'endMs', d)} />
                    {canEdit && (
                      <span className="ml-auto flex gap-1">
                        <IconButton label={`Split cue ${n}`} onClick={() => split(c)} icon={<Scissors size={14} />} />
                        <IconButton label={`Merge cue ${n} with the next`} onClick={() => mergeNext(c)} disabled={i === cues.length - 1} icon={<Merge size={14} />} />
                        <IconButton label={`Add a cue after cue ${n}`} onClick={() => addAfter(c)} icon={<Plus size={14} />} />
                        <IconButton label={`Delete cue ${n}`} onClick={() => remove(c)} disabled={cues.length === 1} icon={<Trash2 size={14} />} />
                      </span>
                    )}
                  </div>
                  <textarea
                    aria-label={`Cue ${n} text`}
                    value={c.text}
                    readOnly={!canEdit}
                    rows={Math.max(2, c.text.split('\n').length)}
                    onChange={(e) => change(c.key, { text: e.target.value })}
                    className={inputClass(false, 'mt-1 w-full font-mono text-sm')}
                  />
                  {w.length > 0 && (
                    <ul className="mt-1 list-disc pl-5 text-xs text-amber-800 dark:text-amber-300" aria-label={`Cue ${n} warnings`}>
                      {w.map((x) => (
                        <li key={x.kind + ('line' in x ? x.line : '')}>{describeWarning(x)}</li>
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ol>
          {pages > 1 && (
            <nav className="flex items-center justify-center gap-2 text-sm" aria-label="Cue pages">
              <Button variant="outline" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <span>{`Cues ${page * PAGE + 1}–${Math.min(cues.length, (page + 1) * PAGE)} of ${cues.length}`}</span>
              <Button variant="outline" size="sm" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>
                Next
              </Button>
            </nav>
          )}
        </>
      )}
      <ConfirmDialog
        open={leaving}
        title="Leave without saving?"
        message="Your changes to these captions are not saved and will be lost."
        confirmLabel="Leave"
        onConfirm={() => {
          setLeaving(false);
          onClose();
        }}
        onCancel={() => setLeaving(false)}
      />
    </div>
  );
}

function IconButton({ label, onClick, icon, disabled = false }: { label: string; onClick: () => void; icon: ReactNode; disabled?: boolean }) {
  return (
    <Button variant="ghost" size="icon" aria-label={label} title={label} onClick={onClick} disabled={disabled}>
      <span aria-hidden="true">{icon}</span>
    </Button>
  );
}

function TimeNudge({ label, ms, disabled, onNudge }: { label: string; ms: number; disabled: boolean; onNudge: (frames: number) => void }) {
  return (
    <span className="inline-flex items-center gap-1" role="group" aria-label={label}>
      {!disabled && (
        <button type="button" className="rounded px-1 text-fg-muted hover:bg-muted" aria-label={`${label} one frame earlier`} onClick={() => onNudge(-1)}>
          −
        </button>
      )}
      <span className="font-mono text-xs tabular-nums" data-testid="cue-time">
        {clock(ms)}
      </span>
      {!disabled && (
        <button type="button" className="rounded px-1 text-fg-muted hover:bg-muted" aria-label={`${label} one frame later`} onClick={() => onNudge(1)}>
          +
        </button>
      )}
    </span>
  );
}

const SOURCE = { uploaded: 'uploaded', edited: 'edited', embedded: 'from the video file' } as const;

function RevisionHistory({
  base,
  revisions,
  canEdit,
  dirty,
  onReverted,
}: {
  base: string;
  revisions: CaptionRevisionInfo[];
  canEdit: boolean;
  dirty: boolean;
  onReverted: (s: CaptionEditorState) => void;
}) {
  const [diff, setDiff] = useState<CaptionDiff | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reverting, setReverting] = useState<CaptionRevisionInfo | null>(null);
  const [busy, setBusy] = useState(false);

  const show = async (number: number) => {
    setOpen(number);
    setDiff(null);
    setError(null);
    try {
      setDiff(await apiJson<CaptionDiff>('GET', `${base}/revisions/${number}/diff`));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const revert = async (r: CaptionRevisionInfo) => {
    setBusy(true);
    try {
      const s = await apiJson<CaptionEditorState>('POST', `${base}/revisions/${r.number}/revert`);
      toast({ title: `Revision ${r.number} brought back`, description: `Saved as revision ${s.track.revision}.` });
      setReverting(null);
      onReverted(s);
    } catch (e) {
      toast({ title: 'Revision not brought back', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-2">
      <ol className="space-y-2" aria-label="Revisions">
        {revisions.map((r) => (
          <li key={r.id} className="rounded-md border border-line p-2 text-sm" data-testid="caption-revision">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{`Revision ${r.number}`}</span>
              {r.current && <span className="rounded bg-accent/15 px-1.5 text-xs">current</span>}
              <span className="text-xs text-fg-muted">{`${SOURCE[r.source]}${r.author ? ` by ${r.author}` : ''}, ${formatDate(r.createdAt)} · ${r.cueCount} cues`}</span>
              <span className="ml-auto flex gap-1">
                <Button variant="ghost" size="sm" aria-expanded={open === r.number} onClick={() => (open === r.number ? setOpen(null) : void show(r.number))}>
                  Changes
                </Button>
                {canEdit && !r.current && (
                  <Button variant="outline" size="sm" disabled={busy} onClick={() => setReverting(r)}>
                    Bring back
                  </Button>
                )}
              </span>
            </div>
            {r.notes.length > 0 && <p className="text-xs text-fg-muted">{r.notes.join('; ')}</p>}
            {open === r.number && (
              <div className="mt-2" data-testid="caption-diff">
                {error ? (
                  <p role="alert" className="text-xs text-red-700 dark:text-red-300">
                    {error}
                  </p>
                ) : !diff ? (
                  <Skeleton className="h-10 w-full" />
                ) : (
                  <DiffList diff={diff} />
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
      <ConfirmDialog
        open={reverting !== null}
        title={reverting ? `Bring back revision ${reverting.number}?` : ''}
        message={`Its cues become the next revision; every revision stays in the history.${dirty ? ' Your unsaved edits are dropped.' : ''}`}
        confirmLabel="Bring back"
        pending={busy}
        onConfirm={() => reverting && void revert(reverting)}
        onCancel={() => setReverting(null)}
      />
    </div>
  );
}

function DiffList({ diff }: { diff: CaptionDiff }) {
  if (!diff.entries.length) return <p className="text-xs text-fg-muted">{`No cue changed (${diff.unchanged} the same).`}</p>;
  const cue = (c: { startMs: number; endMs: number; text: string }) => `${clock(c.startMs)} → ${clock(c.endMs)}  ${c.text.replace(/\n/g, ' / ')}`;
  return (
    <div className="space-y-1 text-xs">
      <p className="text-fg-muted">{diff.against ? `Against revision ${diff.against}: ${diff.unchanged} cues the same.` : 'The first revision: every cue is new.'}</p>
      <ul className="space-y-1 font-mono">
        {diff.entries.slice(0, 200).map((e, i) => (
          <li key={i} data-change={e.change}>
            {e.change === 'added' && <span className="text-green-700 dark:text-green-400">{`+ ${cue(e.after!)}`}</span>}
            {e.change === 'removed' && <span className="text-red-700 line-through dark:text-red-400">{`− ${cue(e.before!)}`}</span>}
            {e.change === 'changed' && (
              <>
                <span className="block text-red-700 dark:text-red-400">{`− ${cue(e.before!)}`}</span>
                <span className="block text-green-700 dark:text-green-400">{`+ ${cue(e.after!)}`}</span>
              </>
            )}
          </li>
        ))}
      </ul>
      {diff.entries.length > 200 && <p className="text-fg-muted">{`…and ${diff.entries.length - 200} more changes.`}</p>}
    </div>
  );
}
