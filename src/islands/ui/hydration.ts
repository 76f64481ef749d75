// Islands are server-rendered HTML first and React later: on a slow phone a visitor can type or
// click for seconds before the island's script has run. Two rules keep that input:
// - text typed into a server-rendered field is adopted by the island when it hydrates
//   (useKeptInput), so the next render does not wipe it;
// - buttons stay disabled (and look it) until their island has hydrated (useHydrated), so a
//   click never lands on a button that does nothing, nor submits a form natively.
import { useLayoutEffect, useRef, useSyncExternalStore, type ChangeEvent } from 'react';

const subscribe = () => () => {};

/**
 * False while React hydrates server HTML (and on the server), true from the render right after,
 * and true at once for anything first rendered in the browser (dialogs, lists loaded later).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * A ref for a controlled field that keeps what was typed (or autofilled) before hydration.
 * React leaves the DOM value alone while hydrating but its state still holds the server's
 * value, so the next render would put that back. On mount, a field whose DOM differs from
 * `value` (`checked` for checkboxes) reports its content to `onChange` as if just typed.
 * Fields first rendered in the browser never differ, so for them this does nothing.
 */
export function useKeptInput<T extends Control>(value: unknown, onChange: ((e: ChangeEvent<T>) => void) | undefined) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    // Uncontrolled fields keep their DOM value anyway.
    if (!el || !onChange || value === undefined) return;
    const toggles = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio');
    const differs = toggles ? el.checked !== Boolean(value) : el.value !== String(value ?? '');
    if (differs) onChange({ target: el, currentTarget: el, type: 'change', preventDefault() {}, stopPropagation() {} } as unknown as ChangeEvent<T>);
    // Only the value found on mount matters: later changes come through real events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}
