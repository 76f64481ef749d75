import { useStore } from '@nanostores/react';
import { Moon, Sun } from 'lucide-react';
import { useEffect, useState } from 'react';
import { $theme, resolveTheme, setTheme } from '../shared/theme.ts';
import { Tooltip } from './ui/Tooltip.tsx';
import { useHydrated } from './ui/hydration.ts';

/** Switches between light and dark (000 §4). */
export default function ThemeToggle({ className = '' }: { className?: string }) {
  const pref = useStore($theme);
  const [resolved, setResolved] = useState<'light' | 'dark'>('dark');
  useEffect(() => setResolved(resolveTheme(pref)), [pref]);
  const next = resolved === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} theme`;
  const hydrated = useHydrated();
  return (
    <Tooltip label={label}>
      <button
        type="button"
        onClick={() => setTheme(next)}
        disabled={!hydrated}
        aria-label={label}
        data-testid="theme-toggle"
        className={`inline-flex h-10 w-10 items-center justify-center rounded-full hover:bg-muted disabled:cursor-wait ${className}`}
      >
        {resolved === 'dark' ? <Sun size={18} aria-hidden="true" /> : <Moon size={18} aria-hidden="true" />}
      </button>
    </Tooltip>
  );
}
