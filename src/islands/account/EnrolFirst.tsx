// The enrolment page (issue 56): a staff user whose role requires a second factor sets up an
// authenticator app or a passkey here before anything else opens, then goes on to their landing page.
import { useState } from 'react';
import { LogOut } from 'lucide-react';
import { logoutStaff } from '../../shared/logout.ts';
import { Button } from '../ui/Button.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { TotpSetup } from './TotpSetup.tsx';
import { PasskeyList } from './PasskeyList.tsx';
import { goToStaffLanding } from './staff-landing.ts';

export default function EnrolFirst({ accountName }: { accountName: string }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const [leaving, setLeaving] = useState(false);
  return (
    <div className="space-y-6">
      {codes ? (
        <RecoveryCodes codes={codes} account={accountName} doneLabel="Continue" onDone={() => void goToStaffLanding()} />
      ) : (
        <>
          <TotpSetup base="/api/user/second-factor" onDone={setCodes} />
          <PasskeyList base="/api/user/second-factor" passkeys={[]} hasOtherFactor={false} onChanged={goToStaffLanding} onRecoveryCodes={setCodes} />
        </>
      )}
      <div className="border-t border-line pt-4">
        <Button
          variant="ghost"
          size="sm"
          disabled={leaving}
          onClick={() => {
            setLeaving(true);
            void logoutStaff({ redirectTo: '/auth' });
          }}
        >
          <LogOut size={14} aria-hidden="true" /> {leaving ? 'Signing out…' : 'Sign out'}
        </Button>
      </div>
    </div>
  );
}
