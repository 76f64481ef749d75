// One expired session, one "Sign in again" toast (src/shared/toast.ts): the failed call's own
// toast carries the way back; a later 401 from another request in flight (the bell's poll)
// does not replace it with the plain fallback, which shows only when nobody toasted.
import { afterEach, expect, test } from 'vitest';
import { $toast, dismissToast, offerSignInAgain, toast } from '../../src/shared/toast.ts';

const HREF = '/auth?next=%2Fadmin%2Fenquiries';
const settle = () => new Promise((r) => setTimeout(r, 150));

afterEach(() => dismissToast());

test('nobody toasted the 401: the fallback "Session expired" offers to sign in again', async () => {
  offerSignInAgain(HREF);
  await settle();
  expect($toast.get()).toMatchObject({ title: 'Session expired', action: { label: 'Sign in again', href: HREF } });
});

test("the failed call's own toast carries the way back, and a second 401 just after leaves it on screen", async () => {
  offerSignInAgain(HREF);
  toast({ title: 'Failed to load enquiries', description: 'Your session has expired. Sign in again to continue.', variant: 'destructive' });
  offerSignInAgain(HREF);
  await settle();
  expect($toast.get()).toMatchObject({ title: 'Failed to load enquiries', action: { label: 'Sign in again', href: HREF } });
  // Nothing is left waiting to be attached to an unrelated toast.
  toast({ title: 'Saved' });
  expect($toast.get()?.action).toBeUndefined();
});

test('a 401 after that toast was dismissed shows the fallback again', async () => {
  offerSignInAgain(HREF);
  toast({ title: 'Failed to load enquiries' });
  dismissToast();
  offerSignInAgain(HREF);
  await settle();
  expect($toast.get()?.title).toBe('Session expired');
});
