import { Badge } from '../../ui/Badge.tsx';
import { ENQUIRY_STATUS_LABELS, type EnquiryStatus } from '../../../shared/schemas/enquiry.ts';

const TONE = { new: 'accent', read: 'outline', archived: 'default' } as const;

export function StatusBadge({ status }: { status: EnquiryStatus }) {
  return <Badge tone={TONE[status]}>{ENQUIRY_STATUS_LABELS[status]}</Badge>;
}
