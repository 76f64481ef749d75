// A stage's decision rule (issue 57), as a pure function of the decisions standing on the
// current version. "Request changes" from anyone sends the round back to the studio whatever
// the rule: a reviewer who asked for changes is never outvoted by the others' approvals.
import type { Decision, StageRule } from '../../shared/schemas/rounds.ts';

export type StageOutcome = 'open' | 'met' | 'changes';

export function stageOutcome(rule: StageRule, reviewerIds: readonly number[], approverId: number | null, standing: ReadonlyMap<number, Decision>): StageOutcome {
  const counted = [...standing].filter(([id]) => reviewerIds.includes(id));
  if (counted.some(([, d]) => d === 'request_changes')) return 'changes';
  const approved = (id: number) => {
    const d = standing.get(id);
    return d === 'approve' || d === 'approve_with_changes';
  };
  switch (rule) {
    case 'all':
      return reviewerIds.length > 0 && reviewerIds.every(approved) ? 'met' : 'open';
    case 'any':
      return reviewerIds.some(approved) ? 'met' : 'open';
    case 'approver':
      return approverId != null && reviewerIds.includes(approverId) && approved(approverId) ? 'met' : 'open';
  }
}
