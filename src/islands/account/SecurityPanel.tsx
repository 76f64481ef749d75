// An account's own second factors (issue 56): the staff Security page and the client portal's
// Security dialog. Set up an authenticator app, see it, remove it, make new recovery codes,
// forget trusted browsers.
import { useCallback, useEffect, useState } from 'react';
import { KeyRound, MonitorSmartphone, ShieldAlert, ShieldCheck, Smartphone } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { formatDate } from '../../shared/format.ts';
import { toast } from '../../shared/toast.ts';
import type { SecondFactorStatus } from '../../shared/schemas/second-factor.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { ProveFactorDialog } from './ProveFactorDialog.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { TotpSetup } from './TotpSetup.tsx';
import { PasskeyList } from './PasskeyList.tsx';

type View = 'status' | 'setup' | { codes: string[] };

/** `passkeys`: the account may hold passkeys (staff). */
export default function SecurityPanel({ base, accountName, passkeys = false }: { base: string; accountName: string; passkeys?: boolean }) {
  const [status, setStatus] = useState<SecondFactorStatus | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [view, setView] = useState<View>('status');
  const [asking, setAsking] = useState<'remove' | 'codes' | null>(null);
  const [forgetting, setForgetting] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus(await apiJson<SecondFactorStatus>('GET', base));
      setLoadError(null);
    } catch (e) {
      setLoadError(errorMessage(e));
    }
  }, [base]);
  useEffect(() => void load(), [load]);

  async function forgetBrowsers() {
    setForgetting(true);
    try {
      await apiJson('DELETE', `${base}/trusted-browsers`);
      toast({ title: 'Trusted browsers forgotten', description: 'Every browser asks for a code at the next sign-in.' });
      await load();
    } catch (e) {
      toast({ title: 'Could not forget browsers', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setForgetting(false);
    }
  }

  if (loadError && !status) {
    return (
      <div className="space-y-3" role="alert">
        <p className="text-sm text-danger">{loadError}</p>
        <Button variant="outline" onClick={() => void load()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!status) {
    return (
      <div className="space-y-3" aria-busy="true" aria-label="Loading your sign-in settings">
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }

  if (view === 'setup') {
    return <TotpSetup base={base} onDone={(codes) => setView({ codes })} onCancel={() => setView('status')} />;
  }
  if (typeof view === 'object') {
    return (
      <RecoveryCodes
        codes={view.codes}
        account={accountName}
        onDone={() => {
          setView('status');
          void load();
        }}
      />
    );
  }

  const { totp } = status;
  const anyFactor = !!totp || status.passkeys.length > 0;
  const passkeyProof = passkeys && status.passkeys.length > 0 ? `${base}/passkeys/challenge` : undefined;
  return (
    <div className="space-y-6" data-testid="security-panel">
      {status.required && !anyFactor && (
        <p className="flex items-start gap-2 rounded-lg border border-amber-600/60 bg-amber-500/10 p-3 text-sm" role="status">
          <ShieldAlert size={18} aria-hidden="true" className="mt-0.5 shrink-0 text-amber-600" />
          Your role requires a second factor: set up an authenticator app{passkeys ? ' or a passkey' : ''} to go on using the studio.
        </p>
      )}
      <section aria-labelledby="authenticator-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id="authenticator-heading" className="flex items-center gap-2 font-semibold">
            <Smartphone size={18} aria-hidden="true" className="text-accent" />
            Authenticator app
          </h3>
          {totp ? (
            <Badge tone="success">
              <ShieldCheck size={12} aria-hidden="true" /> On
            </Badge>
          ) : (
            <Badge tone="outline">Off</Badge>
          )}
        </div>
        {totp ? (
          <>
            <p className="text-sm text-fg-muted">
              Set up {formatDate(totp.since)}
              {totp.lastUsedAt ? `, last used ${formatDate(totp.lastUsedAt)}` : ''}. Signing in asks for a code from it after your password.
            </p>
            <Button variant="outline" className="text-danger" onClick={() => setAsking('remove')}>
              Remove authenticator app
            </Button>
          </>
        ) : (
          <>
            <p className="text-sm text-fg-muted">
              With an authenticator app on your phone, signing in asks for a 6-digit code after your password, so a stolen password alone cannot open your account.
            </p>
            <Button onClick={() => setView('setup')}>Set up authenticator app</Button>
          </>
        )}
      </section>

      {passkeys && (
        <PasskeyList base={base} passkeys={status.passkeys} hasOtherFactor={!!totp} onChanged={load} onRecoveryCodes={(codes) => setView({ codes })} />
      )}

      {anyFactor && (
        <>
          <section aria-labelledby="recovery-heading" className="space-y-3 border-t border-line pt-5">
            <h3 id="recovery-heading" className="flex items-center gap-2 font-semibold">
              <KeyRound size={18} aria-hidden="true" className="text-accent" />
              Recovery codes
            </h3>
            <p className="text-sm text-fg-muted" data-testid="recovery-left">
              {status.recoveryCodesLeft === 0
                ? 'You have used every recovery code. Make new ones now, in case you lose your phone or passkey.'
                : `${status.recoveryCodesLeft} of 10 left. Each signs you in once without your phone.`}
            </p>
            <Button variant="outline" onClick={() => setAsking('codes')}>
              Make new recovery codes
            </Button>
          </section>

          <section aria-labelledby="browsers-heading" className="space-y-3 border-t border-line pt-5">
            <h3 id="browsers-heading" className="flex items-center gap-2 font-semibold">
              <MonitorSmartphone size={18} aria-hidden="true" className="text-accent" />
              Trusted browsers
            </h3>
            <p className="text-sm text-fg-muted">
              {status.trustedBrowsers === 0
                ? 'No browser skips the code. Tick "Trust this browser for 30 days" when you sign in on a computer of your own.'
                : `${status.trustedBrowsers} ${status.trustedBrowsers === 1 ? 'browser signs' : 'browsers sign'} in without a code for 30 days from when it was trusted${status.thisBrowserTrusted ? ', this one included' : ''}.`}
            </p>
            {status.trustedBrowsers > 0 && (
              <Button variant="outline" onClick={() => void forgetBrowsers()} disabled={forgetting}>
                {forgetting ? 'Forgetting…' : 'Forget trusted browsers'}
              </Button>
            )}
          </section>
        </>
      )}

      <ProveFactorDialog
        open={asking === 'remove'}
        title="Remove authenticator app"
        description={
          status.passkeys.length > 0
            ? 'Your passkeys go on standing in for it, and your recovery codes keep working.'
            : status.required
              ? 'Your role requires a second factor: after removing it you must set up an app again before you can go on.'
              : 'Signing in will ask for your password alone. Your recovery codes stop working too.'
        }
        confirmLabel="Remove"
        danger
        passkeyChallengePath={passkeyProof}
        onClose={() => setAsking(null)}
        onProve={async (proof) => {
          await apiJson('POST', `${base}/remove`, proof);
          const alone = status.passkeys.length === 0;
          toast({ title: 'Authenticator app removed', description: alone ? 'Signing in now asks for your password alone.' : 'Signing in now asks for one of your passkeys.' });
          await load();
          // The policy may now hold this user at the enrolment page.
          if (status.required && alone) window.location.reload();
        }}
      />
      <ProveFactorDialog
        open={asking === 'codes'}
        title="Make new recovery codes"
        description={`Your old recovery codes stop working. Enter a code from your app (or one of the old recovery codes)${passkeyProof ? ', or use a passkey,' : ''} to go on.`}
        confirmLabel="Make new codes"
        passkeyChallengePath={passkeyProof}
        onClose={() => setAsking(null)}
        onProve={async (proof) => {
          const { recoveryCodes } = await apiJson<{ recoveryCodes: string[] }>('POST', `${base}/recovery-codes`, proof);
          toast({ title: 'New recovery codes made', description: 'The old ones no longer work.' });
          setView({ codes: recoveryCodes });
        }}
      />
    </div>
  );
}
