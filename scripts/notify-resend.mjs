#!/usr/bin/env node
// `npm run notify:resend`: after SMTP_URL is set (or mail is fixed), queue again every
// notification that was only written to NOTIFY_DIR or gave up ('written', 'failed'). The
// running app's sender loop then sends them; their files stay in the folder.
const { bootstrapDatabase } = await import('../src/db/bootstrap.ts');
await bootstrapDatabase(() => {});
const { requeueUnsent } = await import('../src/server/notifications/outbox.ts');
const n = await requeueUnsent();
console.log(`${n} notification(s) queued to be sent again by the running app.`);
process.exit(0);
