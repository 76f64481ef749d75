// One expired session, one "Sign in again" toast (src/shared/toast.ts): the failed call's own
// toast carries the way back; a later 401 from another request in flight (the bell's poll)
// does not replace it with the plain fallback, which shows only when nobody toasted.
import { afterEach, expect, test } from 'vitest';
import { $toast, dismissToast, offerSignInAgain, toast } from '../../src/shared/toast.ts';
import { apiErrorFrom } from '../../src/shared/api.ts';

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

// Issue 53: a client's wrong download PIN (a 401 that is not about the session) read "Your
// session has expired" and offered to sign in again; guests saw the PIN's own message.
test.each([
  ['a wrong PIN', 'That PIN is not right.', 'That PIN is not right.', false],
  ['no session', 'You need to sign in to do that.', 'Your session has expired. Sign in again to continue.', true],
])('a 401 on a portal screen for %s reads "%s" -> "%s"', async (_what, sent, shown, offered) => {
  const g = globalThis as { window?: unknown };
  g.window = { location: { pathname: '/client/galleries/7', search: '' } };
  try {
    const err = apiErrorFrom(401, 'Unauthorized', JSON.stringify({ message: sent }), '/api/client/galleries/7/pin');
    expect(err.serverMessage).toBe(shown);
    await settle();
    expect($toast.get()?.action?.href === '/client/login?next=%2Fclient%2Fgalleries%2F7').toBe(offered);
  } finally {
    delete g.window;
  }
});
