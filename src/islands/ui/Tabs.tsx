import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useHydrated } from './hydration.ts';

/** WAI-ARIA tabs: arrow keys move between tabs, panels are labelled by their tab. */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  children,
}: {
  tabs: { value: T; label: ReactNode }[];
  value: T;
  onChange: (value: T) => void;
  label: string;
  children: ReactNode;
}) {
  const base = useId();
  const hydrated = useHydrated();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: KeyboardEvent, i: number) => {
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % tabs.length;
    if (e.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    if (e.key === 'Home') next = 0;
    if (e.key === 'End') next = tabs.length - 1;
    if (next >= 0) {
      e.preventDefault();
      onChange(tabs[next]!.value);
      refs.current[next]?.focus();
    }
  };
  return (
    <div>
      <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 rounded-lg bg-muted p-1">
        {tabs.map((t, i) => (
          <button
            key={t.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.value}`}
            aria-selected={value === t.value}
            aria-controls={`${base}-panel`}
            tabIndex={value === t.value ? 0 : -1}
            onClick={() => onChange(t.value)}
            disabled={!hydrated}
            onKeyDown={(e) => onKey(e, i)}
            className={`rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-wait ${value === t.value ? 'bg-raised text-fg shadow-sm' : 'text-fg-muted hover:text-fg'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${value}`} className="pt-4">
        {children}
      </div>
    </div>
  );
}
