import type { ReactNode } from 'react';

type Tone = 'default' | 'accent' | 'success' | 'warning' | 'danger' | 'outline';
const TONES: Record<Tone, string> = {
  default: 'bg-muted text-fg',
  accent: 'bg-accent text-accent-fg',
  success: 'bg-emerald-700 text-white',
  warning: 'bg-amber-600 text-black',
  danger: 'bg-red-700 text-white',
  outline: 'border border-line text-fg',
};

export function Badge({ children, tone = 'default', className = '' }: { children: ReactNode; tone?: Tone; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${TONES[tone]} ${className}`}>
      {children}
    </span>
  );
}
