import { useId } from 'react';
import { Lock } from 'lucide-react';
import { buttonClass } from '../ui/Button.tsx';

/**
 * A download that waits for approval (issue 30): the button, disabled, and the reason beside it
 * (the same text the server answers a download request with).
 */
export function BlockedDownload({ reason, label = 'Download', size = 'md' }: { reason: string; label?: string; size?: 'sm' | 'md' }) {
  const id = useId();
  return (
    <div className="flex flex-col items-start gap-1" data-testid="download-blocked">
      <button type="button" disabled aria-describedby={id} className={buttonClass('outline', size)}>
        <Lock size={16} aria-hidden="true" />
        {label}
      </button>
      <p id={id} className="text-xs text-fg-muted">
        {reason}
      </p>
    </div>
  );
}
