// Validation messages clear as soon as their field is valid again (issue 19 #14), instead of
// waiting for the next submit. Only fields whose value changed are re-checked, so a message
// the server gave (a clash, say) stays until that field is edited.
import { useEffect, useRef, type Dispatch, type SetStateAction } from 'react';

export function useClearFixedErrors<V extends object>(
  values: V,
  validate: (values: V) => Record<string, string>,
  setErrors: Dispatch<SetStateAction<Record<string, string>>>,
): void {
  const previous = useRef(values);
  useEffect(() => {
    const before = previous.current;
    previous.current = values;
    const changed = Object.keys(values).filter((k) => !Object.is(values[k as keyof V], before[k as keyof V]));
    if (changed.length === 0) return;
    setErrors((shown) => {
      const stale = changed.filter((k) => shown[k]);
      if (stale.length === 0) return shown;
      const now = validate(values);
      let next = shown;
      for (const k of stale) {
        if (now[k]) continue;
        if (next === shown) next = { ...shown };
        delete next[k];
      }
      return next;
    });
  });
}
