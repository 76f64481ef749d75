// Starting a review round (issue 57 item 1), for staff with edit:media in the detail dialog: a
// name, 1–5 stages (name, rule, reviewers among library staff and the item's client logins, an
// approver for the named-approver rule, a due day), optionally from a saved template, and saving
// the stages as a template for next time.
import { useEffect, useState } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import { MAX_STAGES, STAGE_RULES, STAGE_RULE_LABELS, type ReviewerCandidate, type ReviewerRef, type RoundBoard, type RoundTemplate, type StageRule } from '../../shared/schemas/rounds.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { Select } from '../ui/Select.tsx';

interface DraftStage {
  name: string;
  rule: StageRule;
  reviewers: string[]; // candidate keys
  approver: string;
  dueDay: string; // yyyy-mm-dd, local
}

const keyOf = (c: ReviewerCandidate) => `${c.kind}:${c.id}`;
const refOf = (key: string): ReviewerRef => {
  const [kind, id] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  return kind === 'staff' ? { kind: 'staff', userId: id } : { kind: 'client', clientUserId: Number(id) };
};
const blank = (name = ''): DraftStage => ({ name, rule: 'all', reviewers: [], approver: '', dueDay: '' });
const dayAfter = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** The end of the chosen day where the browser is (the studio's reviewers read it as "by that evening"). */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();

export function StartRoundDialog({ mediaId, open, onClose, onStarted }: { mediaId: number; open: boolean; onClose: () => void; onStarted: (round: RoundBoard) => void }) {
  const [candidates, setCandidates] = useState<ReviewerCandidate[] | null>(null);
  const [templates, setTemplates] = useState<RoundTemplate[]>([]);
  const [name, setName] = useState('Review');
  const [stages, setStages] = useState<DraftStage[]>([blank('Internal'), blank('Client')]);
  const [saveAs, setSaveAs] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    apiJson<ReviewerCandidate[]>('GET', `/api/media/${mediaId}/round/candidates`).then(setCandidates, (e) => setError(errorMessage(e)));
    apiJson<RoundTemplate[]>('GET', '/api/round-templates').then(setTemplates, () => setTemplates([]));
  }, [open, mediaId]);

  const change = (i: number, patch: Partial<DraftStage>) => setStages((all) => all.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const useTemplate = (id: string) => {
    const t = templates.find((x) => String(x.id) === id);
    if (!t) return;
    setName(t.name);
    setStages(t.stages.map((s) => ({ ...blank(s.name), rule: s.rule, dueDay: s.dueInDays ? dayAfter(s.dueInDays) : '' })));
  };

  const submit = async () => {
    setPending(true);
    setError(null);
    try {
      const body = {
        name,
        stages: stages.map((s) => ({
          name: s.name,
          rule: s.rule,
          reviewers: s.reviewers.map(refOf),
          ...(s.rule === 'approver' && s.approver ? { approver: refOf(s.approver) } : {}),
          dueAt: s.dueDay ? endOfDay(s.dueDay) : null,
        })),
      };
      const { round } = await apiJson<{ round: RoundBoard }>('POST', `/api/media/${mediaId}/round`, body);
      toast({ title: 'Review round started', description: `“${round.stages[0]!.name}” is open; its reviewers can decide now.` });
      // After the round, so a refused round leaves no template behind; a refused template says why.
      if (saveAs.trim()) {
        const today = new Date(`${dayAfter(0)}T00:00:00`).getTime();
        await apiJson('POST', '/api/round-templates', {
          name: saveAs,
          stages: stages.map((s) => ({ name: s.name, rule: s.rule, dueInDays: s.dueDay ? Math.max(1, Math.round((new Date(`${s.dueDay}T00:00:00`).getTime() - today) / 86_400_000)) : null })),
        }).then(
          () => toast({ title: 'Template saved', description: saveAs }),
          (e) => toast({ title: 'The template was not saved', description: errorMessage(e), variant: 'destructive' }),
        );
      }
      onStarted(round);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  };

  const staff = candidates?.filter((c) => c.kind === 'staff') ?? [];
  const logins = candidates?.filter((c) => c.kind === 'client') ?? [];
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Start a review round"
      description="Stages run in order: when a stage’s rule is met it closes and the next opens. A change request from anyone sends the round back to you."
      size="lg"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={pending || !candidates}>
            Start round
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Round name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
          {templates.length > 0 && (
            <Select label="Start from a template" value="" onChange={(e) => useTemplate(e.target.value)} options={[{ value: '', label: 'Choose…' }, ...templates.map((t) => ({ value: String(t.id), label: t.name }))]} />
          )}
        </div>
        {candidates === null && !error && <p className="text-sm text-fg-muted">Loading who can review…</p>}
        <ol className="space-y-3">
          {stages.map((s, i) => (
            <li key={i} className="space-y-2 rounded-md border border-line p-3" aria-label={`Stage ${i + 1}`}>
              <div className="grid gap-2 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-end">
                <Field label={`Stage ${i + 1} name`} value={s.name} maxLength={60} onChange={(e) => change(i, { name: e.target.value })} />
                <Select label={`Stage ${i + 1} rule`} value={s.rule} onChange={(e) => change(i, { rule: e.target.value as StageRule })} options={STAGE_RULES.map((r) => ({ value: r, label: STAGE_RULE_LABELS[r] }))} />
                <Field label={`Stage ${i + 1} due`} type="date" value={s.dueDay} min={dayAfter(0)} onChange={(e) => change(i, { dueDay: e.target.value })} />
                <Button variant="ghost" size="sm" aria-label={`Remove stage ${i + 1}`} disabled={stages.length === 1} onClick={() => setStages((all) => all.filter((_, j) => j !== i))}>
                  <Trash2 size={14} aria-hidden="true" />
                </Button>
              </div>
              <fieldset className="space-y-1">
                <legend className="text-sm font-medium">{`Stage ${i + 1} reviewers`}</legend>
                {[
                  { group: 'Studio', list: staff },
                  { group: 'Client logins', list: logins },
                ].map(({ group, list }) =>
                  list.length ? (
                    <div key={group} className="flex flex-wrap gap-x-4 gap-y-1">
                      <span className="w-full text-xs text-fg-muted">{group}</span>
                      {list.map((c) => (
                        <label key={keyOf(c)} className="flex items-center gap-1.5 text-sm">
                          <input
                            type="checkbox"
                            className="h-4 w-4 accent-[var(--accent)]"
                            checked={s.reviewers.includes(keyOf(c))}
                            onChange={(e) => change(i, { reviewers: e.target.checked ? [...s.reviewers, keyOf(c)] : s.reviewers.filter((k) => k !== keyOf(c)) })}
                          />
                          {c.kind === 'client' ? `${c.name} (${c.group})` : c.name}
                        </label>
                      ))}
                    </div>
                  ) : null,
                )}
              </fieldset>
              {s.rule === 'approver' && (
                <Select
                  label={`Stage ${i + 1} approver`}
                  value={s.approver}
                  onChange={(e) => change(i, { approver: e.target.value })}
                  options={[{ value: '', label: 'Choose one of the reviewers…' }, ...(candidates ?? []).filter((c) => s.reviewers.includes(keyOf(c))).map((c) => ({ value: keyOf(c), label: c.name }))]}
                />
              )}
            </li>
          ))}
        </ol>
        <Button variant="outline" size="sm" disabled={stages.length >= MAX_STAGES} onClick={() => setStages((all) => [...all, blank(all.length === 2 ? 'Legal' : '')])}>
          <Plus size={14} aria-hidden="true" /> Add stage
        </Button>
        <Field label="Save these stages as a template (optional)" value={saveAs} maxLength={80} placeholder="e.g. Agency standard" onChange={(e) => setSaveAs(e.target.value)} />
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
