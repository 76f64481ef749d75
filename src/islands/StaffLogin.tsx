import { useEffect, useState } from 'react';
import { Fingerprint } from 'lucide-react';
import { apiJson, errorMessage } from '../shared/api.ts';
import { staffLoginSchema } from '../shared/schemas/auth.ts';
import { ENROL_PAGE, type FactorKind, type SecondStep as SecondStepAnswer } from '../shared/schemas/second-factor.ts';
import { toast, toastAfterNavigation } from '../shared/toast.ts';
import { SignInForm } from './ui/SignInForm.tsx';
import { SecondStep } from './account/SecondStep.tsx';
import { goToStaffLanding } from './account/staff-landing.ts';
import { answerWithPasskey, passkeysSupported } from './account/passkey-browser.ts';
import { Button } from './ui/Button.tsx';

type SignedIn = { username: string; mustEnrol?: boolean };

/** A signed-in staff user goes on: to the enrolment page when a role requires a factor not set up yet (issue 56), else onwards. */
async function goOn(user: SignedIn) {
  toastAfterNavigation({ title: 'Login successful', description: `Welcome back, ${user.username}!` });
  if (user.mustEnrol) {
    window.location.assign(ENROL_PAGE + window.location.search);
    await new Promise(() => {});
  }
  await goToStaffLanding();
}

/**
 * Staff sign-in (000 §2, §5, §8): after sign-in, the roles and permissions decide the landing page.
 * With an authenticator app, a second step asks for its code (issue 56); `pendingFactors` when
 * the page was (re)loaded during that step.
 */
export default function StaffLogin({ pendingFactors = null }: { pendingFactors?: FactorKind[] | null }) {
  const [factors, setFactors] = useState<FactorKind[] | null>(pendingFactors);
  // After hydration: the server cannot know whether the browser has passkeys.
  const [passkeys, setPasskeys] = useState(false);
  const [waiting, setWaiting] = useState(false);
  useEffect(() => setPasskeys(passkeysSupported()), []);

  /** A passkey alone (issue 56): no username, no password; the passkey names the account. */
  async function signInWithPasskey() {
    setWaiting(true);
    try {
      const response = await answerWithPasskey('/api/login/passkey/options');
      await goOn(await apiJson<SignedIn>('POST', '/api/login/passkey', { response }));
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setWaiting(false);
    }
  }

  async function signIn(credentials: { username: string; password: string }) {
    let answer: SignedIn | SecondStepAnswer;
    try {
      answer = await apiJson<SignedIn | SecondStepAnswer>('POST', '/api/login', credentials);
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err), variant: 'destructive' });
      return;
    }
    if ('secondFactor' in answer) setFactors(answer.secondFactor.factors);
    else await goOn(answer);
  }

  if (factors) return <SecondStep<SignedIn> verifyPath="/api/login/verify" factors={factors} onSignedIn={goOn} onStartOver={() => setFactors(null)} />;
  return (
    <>
      <SignInForm
        schema={staffLoginSchema}
        usernameLabel="Username or Email"
        usernamePlaceholder="Enter your username or email"
        ariaLabel="Staff sign-in"
        onSubmit={signIn}
      />
      {passkeys && (
        <div className="mt-4 border-t border-line pt-4">
          <Button variant="outline" size="lg" className="w-full" disabled={waiting} onClick={() => void signInWithPasskey()}>
            <Fingerprint size={16} aria-hidden="true" /> {waiting ? 'Waiting for your passkey…' : 'Continue with a passkey'}
          </Button>
        </div>
      )}
    </>
  );
}
