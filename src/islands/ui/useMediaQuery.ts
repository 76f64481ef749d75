// Whether a CSS media query matches, following changes. False on the server and while
// hydrating server HTML (so hydration matches), the browser's answer from the render after.
// One MediaQueryList a query for the page: a grid's tiles each ask, and each would make one.
import { useCallback, useSyncExternalStore } from 'react';

const lists = new Map<string, MediaQueryList>();
const listFor = (query: string) => {
  let mq = lists.get(query);
  if (!mq) lists.set(query, (mq = matchMedia(query)));
  return mq;
};

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const mq = listFor(query);
      mq.addEventListener('change', changed);
      return () => mq.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => listFor(query).matches,
    () => false,
  );
}
