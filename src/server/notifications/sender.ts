// The outbox's sender loop: started with the app (scripts/start.mjs, every process: the
// claims make that safe) and by `npm run worker`. Each round runs the digest when its slot
// is due, then sends every due message: over SMTP_URL when set, otherwise into NOTIFY_DIR.
// Requests never wait for it; a message waits at most NOTIFY_POLL_MS to be picked up.
import { runReviewDigestIfDue } from '../rounds/due-digest.ts';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { config } from '../config.ts';
import { smtpTransport } from '../mail/transport.ts';
import { runDigestIfDue } from './digest.ts';
import { writeMessageFile } from './folder.ts';
import { claimDue, markAttemptFailed, markSent, markWritten, type ClaimedMessage } from './outbox.ts';
import { studioIdentity, withSignature } from './studio.ts';
import { oneLine } from '../mail/plain-text.ts';
import { sendDueReminders } from '../proofing/reminders.ts';

export interface Notifier {
  stop: () => Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref();
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

async function deliver(m: ClaimedMessage, owner: string, log: (line: string) => void): Promise<void> {
  // Rows queued by older releases are sent too: their subject is put on one line here as well.
  // The sender name and the signature are the studio's as they are now (studio.ts).
  const studio = await studioIdentity();
  const message = { from: studio.from, to: m.recipientAddress, subject: oneLine(m.subject), text: withSignature(m.body, studio.signature) };
  const transport = await smtpTransport();
  if (!transport) {
    const file = await writeMessageFile(m.id, message);
    await markWritten(m.id, owner, file);
    log(`no SMTP_URL: notification ${m.id} to ${m.recipientAddress} written to ${file}`);
    return;
  }
  try {
    await transport.sendMail(message);
    await markSent(m.id, owner);
  } catch (error) {
    const why = (error as Error)?.message ?? String(error);
    const outcome = await markAttemptFailed(m, owner, why);
    log(
      outcome === 'failed'
        ? `notification ${m.id} to ${m.recipientAddress} failed ${m.attempts} times, giving up (kept in the outbox): ${why}`
        : `notification ${m.id} to ${m.recipientAddress}: attempt ${m.attempts} failed, will retry: ${why}`,
    );
  }
}

/** One round: the digest if due, then every due message. Exported for scripts. */
export async function notifyRound(owner: string, log: (line: string) => void): Promise<void> {
  // Before the digest, so a reminder held for a digest-mode client goes out in this slot's digest.
  const reminders = await sendDueReminders();
  if (reminders) log(`gallery expiry reminders: ${reminders} gallery(s)`);
  const digests = await runDigestIfDue();
  if (digests) log(`daily digest: ${digests} message(s) queued`);
  const due = await runReviewDigestIfDue();
  if (due) log(`reviews due: ${due} reviewer(s) emailed`);
  for (;;) {
    const batch = await claimDue(owner);
    if (!batch.length) return;
    for (const m of batch) await deliver(m, owner, log);
  }
}

export function startNotifier(log: (line: string) => void = (l) => console.log(`[notify] ${l}`)): Notifier {
  const owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        await notifyRound(owner, log);
      } catch (error) {
        log(`round failed, trying again: ${(error as Error)?.message ?? error}`);
      }
      await sleep(config.NOTIFY_POLL_MS, stopping.signal);
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
