import { CheckCircle2, CircleDot, Lock, MessageSquareWarning } from 'lucide-react';
import { APPROVAL_LABELS, type ApprovalStatus } from '../../shared/schemas/review.ts';
import { Badge } from '../ui/Badge.tsx';

const TONE = { in_review: 'outline', approved: 'success', changes_requested: 'warning' } as const;
const ICON = { in_review: CircleDot, approved: CheckCircle2, changes_requested: MessageSquareWarning } as const;

/** The client's decision on a version: In review, Approved or Changes requested (issue 16). */
export function ApprovalBadge({ status, locked = false }: { status: ApprovalStatus; locked?: boolean }) {
  const Icon = ICON[status];
  return (
    <Badge tone={TONE[status]}>
      <Icon size={12} aria-hidden="true" />
      <span data-testid="approval-status">{APPROVAL_LABELS[status]}</span>
      {locked && (
        <>
          <Lock size={12} aria-hidden="true" />
          <span className="sr-only">(locked)</span>
        </>
      )}
    </Badge>
  );
}
