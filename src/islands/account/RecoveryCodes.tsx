// Recovery codes as shown once (issue 56): copy, download as a text file, or print them.
import { useState } from 'react';
import { Copy, Download, Printer } from 'lucide-react';
import { toast } from '../../shared/toast.ts';
import { Button } from '../ui/Button.tsx';

function codesText(codes: string[], account: string): string {
  return [`Recovery codes for ${account} (${location.host})`, `Made ${new Date().toLocaleString('en-GB')}. Each code works once.`, '', ...codes, ''].join('\n');
}

/** The list and what to do with it; `onDone` once the person says they have kept them. */
export function RecoveryCodes({ codes, account, onDone, doneLabel = 'Done' }: { codes: string[]; account: string; onDone: () => void; doneLabel?: string }) {
  const [saved, setSaved] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codesText(codes, account));
      toast({ title: 'Codes copied', description: 'Paste them into your password manager.' });
    } catch {
      toast({ title: 'Could not copy', description: 'Select the codes and copy them, or download them instead.', variant: 'destructive' });
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([codesText(codes, account)], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `recovery-codes-${account}.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  return (
    <div className="space-y-4" data-testid="recovery-codes">
      <p className="text-sm text-fg-muted">
        If you lose your phone, each of these codes signs you in once instead of a code from the app. Keep them somewhere safe, apart from your phone: they are shown only now.
      </p>
      <ol className="recovery-codes-print grid grid-cols-1 gap-2 rounded-lg border border-line bg-muted/50 p-4 font-mono text-sm min-[360px]:grid-cols-2" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c} className="select-all tabular-nums tracking-wide">
            {c}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          <Copy size={14} aria-hidden="true" /> Copy
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          <Download size={14} aria-hidden="true" /> Download
        </Button>
        <Button variant="outline" size="sm" onClick={() => window.print()}>
          <Printer size={14} aria-hidden="true" /> Print
        </Button>
      </div>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5 h-4 w-4 accent-[var(--accent)]" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        I have saved these codes somewhere safe
      </label>
      <Button onClick={onDone} disabled={!saved}>
        {doneLabel}
      </Button>
    </div>
  );
}
