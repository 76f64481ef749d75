import { useState } from 'react';
import { apiJson, errorMessage } from '../shared/api.ts';
import { clientLoginSchema } from '../shared/schemas/auth.ts';
import { safeReturnPath } from '../shared/landing.ts';
import type { FactorKind, SecondStep as SecondStepAnswer } from '../shared/schemas/second-factor.ts';
import { toast, toastAfterNavigation } from '../shared/toast.ts';
import { SignInForm } from './ui/SignInForm.tsx';
import { SecondStep } from './account/SecondStep.tsx';

type SignedIn = { clientUser: { username: string } };

async function goOn({ clientUser }: SignedIn) {
  toastAfterNavigation({ title: 'Login successful', description: `Welcome back, ${clientUser.username}!` });
  const next = safeReturnPath(new URLSearchParams(window.location.search).get('next'));
  window.location.assign(next?.startsWith('/client/') ? next : '/client/dashboard');
  await new Promise(() => {});
}

/** Client portal sign-in (001 §2, §5, §8); a second step when the login turned on an authenticator app (issue 56). */
export default function ClientLogin({ pendingFactors = null }: { pendingFactors?: FactorKind[] | null }) {
  const [factors, setFactors] = useState<FactorKind[] | null>(pendingFactors);

  async function signIn(credentials: { username: string; password: string }) {
    let answer: SignedIn | SecondStepAnswer;
    try {
      answer = await apiJson<SignedIn | SecondStepAnswer>('POST', '/api/client/login', credentials);
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err, 'Invalid credentials'), variant: 'destructive' });
      return;
    }
    if ('secondFactor' in answer) setFactors(answer.secondFactor.factors);
    else await goOn(answer);
  }

  if (factors) return <SecondStep<SignedIn> verifyPath="/api/client/login/verify" factors={factors} onSignedIn={goOn} onStartOver={() => setFactors(null)} />;
  return (
    <SignInForm
      schema={clientLoginSchema}
      usernameLabel="Username"
      usernamePlaceholder="Enter your username"
      ariaLabel="Client sign-in"
      onSubmit={signIn}
    />
  );
}
