import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useHydrated } from './hydration.ts';

export interface MenuItem {
  label: string;
  onSelect?: () => void;
  icon?: ReactNode;
  destructive?: boolean;
  href?: string;
  /** With `href`: a download link (the server's Content-Disposition names the file). */
  download?: boolean;
  disabled?: boolean;
}

/** Menu type-ahead forgets what was typed this long after the last key (000 §9). */
export const TYPEAHEAD_RESET_MS = 1000;

/**
 * Index of the item type-ahead should focus for `typed`, or -1 when none matches.
 * A single letter, or one letter repeated ("dd"), searches from the item after the current
 * one, so pressing the same letter again cycles through the items starting with it
 * (WAI-ARIA menu pattern); longer text may still match the current item, so typing more of
 * its label keeps focus where it is.
 */
export function typeaheadMatch(items: readonly { label: string; disabled?: boolean }[], current: number, typed: string): number {
  const text = typed.toLowerCase();
  const needle = [...text].every((c) => c === text[0]) ? text.slice(0, 1) : text;
  if (!needle || !items.length) return -1;
  const from = current < 0 ? 0 : needle.length === 1 ? current + 1 : current;
  for (let k = 0; k < items.length; k++) {
    const i = (from + k) % items.length;
    const item = items[i]!;
    if (!item.disabled && item.label.trim().toLowerCase().startsWith(needle)) return i;
  }
  return -1;
}

/**
 * Index arrow keys (delta ±1) or Home/End (delta ±Infinity) move focus to, skipping disabled
 * items (a disabled button cannot take focus, so landing on one would trap the arrows);
 * arrows wrap. -1 when every item is disabled.
 */
export function arrowTarget(items: readonly { disabled?: boolean }[], current: number, delta: number): number {
  const enabled = items.flatMap((item, i) => (item.disabled ? [] : [i]));
  if (!enabled.length) return -1;
  if (delta === -Infinity) return enabled[0]!;
  if (delta === Infinity) return enabled.at(-1)!;
  const at = enabled.indexOf(current);
  if (at < 0) return delta > 0 ? (enabled.find((i) => i > current) ?? enabled[0]!) : (enabled.findLast((i) => i < current) ?? enabled.at(-1)!);
  return enabled[(at + delta + enabled.length) % enabled.length]!;
}

const ITEM_CLASS = 'flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-muted focus:bg-muted disabled:opacity-60';

/**
 * A menu button: Enter/Space/ArrowDown open it, arrows move, typing jumps to the item whose
 * label starts with the typed text, Escape or Tab close it and refocus the button. An
 * icon-only trigger is named by `label`; a trigger with visible text (`labelTrigger={false}`)
 * keeps its own name and `label` names only the menu.
 */
export function Menu({
  trigger,
  label,
  items,
  align = 'end',
  header,
  labelTrigger = true,
  triggerClassName = 'inline-flex items-center justify-center rounded-md p-1.5 hover:bg-muted',
  panelClassName = 'min-w-48',
  triggerTestId,
}: {
  trigger: ReactNode;
  label: string;
  items: MenuItem[];
  align?: 'start' | 'end';
  /** Non-interactive content above the items (e.g. who is signed in). */
  header?: ReactNode;
  labelTrigger?: boolean;
  triggerClassName?: string;
  panelClassName?: string;
  triggerTestId?: string;
}) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const typed = useRef('');
  const typedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!open) return;
    list.current?.querySelector<HTMLElement>('[role="menuitem"]:not(:disabled):not([aria-disabled="true"])')?.focus();
    const onDoc = (e: MouseEvent) => {
      if (!list.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => {
      document.removeEventListener('mousedown', onDoc);
      // Reopening the menu starts a fresh search.
      clearTimeout(typedTimer.current);
      typed.current = '';
    };
  }, [open]);

  const menuItems = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  const isDisabled = (el: HTMLElement) => el.matches(':disabled, [aria-disabled="true"]');

  const move = (delta: number) => {
    const els = menuItems();
    const states = els.map((el) => ({ disabled: isDisabled(el) }));
    els[arrowTarget(states, els.indexOf(document.activeElement as HTMLElement), delta)]?.focus();
  };

  const typeahead = (key: string) => {
    clearTimeout(typedTimer.current);
    typed.current += key;
    typedTimer.current = setTimeout(() => (typed.current = ''), TYPEAHEAD_RESET_MS);
    const els = menuItems();
    // The rendered text, not `items`, so a label always matches what the user reads.
    const labels = els.map((el) => ({ label: el.textContent ?? '', disabled: isDisabled(el) }));
    els[typeaheadMatch(labels, els.indexOf(document.activeElement as HTMLElement), typed.current)]?.focus();
  };

  return (
    <div className="relative inline-block">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        aria-label={labelTrigger ? label : undefined}
        data-testid={triggerTestId}
        disabled={!hydrated}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className={`disabled:cursor-wait ${triggerClassName ?? ''}`}
      >
        {trigger}
      </button>
      {open && (
        <div
          ref={list}
          id={id}
          role="menu"
          aria-label={label}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') (e.preventDefault(), move(1));
            if (e.key === 'ArrowUp') (e.preventDefault(), move(-1));
            if (e.key === 'Home') (e.preventDefault(), move(-Infinity));
            if (e.key === 'End') (e.preventDefault(), move(Infinity));
            if (e.key === 'Escape' || e.key === 'Tab') {
              // Escape closes the menu only, not a <dialog> the menu sits in (its cancel is Escape's default).
              if (e.key === 'Escape') e.preventDefault();
              setOpen(false);
              button.current?.focus();
            }
            // Space activates the focused item unless it continues typed text ("public s").
            const printable = [...e.key].length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
            if (printable && (e.key !== ' ' || typed.current)) {
              e.preventDefault();
              typeahead(e.key);
            }
          }}
          className={`absolute z-50 mt-1 rounded-md border border-line bg-raised p-1 shadow-lg ${panelClassName} ${align === 'end' ? 'right-0' : 'left-0'}`}
        >
          {header && (
            <div role="none" className="mb-1 border-b border-line px-3 py-2">
              {header}
            </div>
          )}
          {items.map((item) =>
            item.href ? (
              <a key={item.label} role="menuitem" href={item.href} download={item.download || undefined} tabIndex={-1} onClick={() => item.download && setOpen(false)} className={ITEM_CLASS}>
                {item.icon}
                {item.label}
              </a>
            ) : (
              <button
                key={item.label}
                type="button"
                role="menuitem"
                tabIndex={-1}
                disabled={item.disabled}
                onClick={() => {
                  setOpen(false);
                  item.onSelect?.();
                }}
                className={`${ITEM_CLASS} ${item.destructive ? 'text-danger' : ''}`}
              >
                {item.icon}
                {item.label}
              </button>
            ),
          )}
        </div>
      )}
    </div>
  );
}
