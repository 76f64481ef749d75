// Issue 29 fixes: a signed-out person following an email's link to an item lands on that item
// after signing in (the redirect to the sign-in page carries `next`), and opening an item by
// `?item=` shows its feedback without first opening the card's own Feedback button.
import { test, expect, ADMIN } from './fixtures.ts';
import { createClient, insertMedia } from './admin-helpers.ts';
import { hydrated } from './accounts-helpers.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

test('an email link to /admin/media?item= signs in first, then opens that item with its feedback', async ({ page, server }) => {
  const mediaId = await insertMedia(server, { title: 'Emailed Cut' });
  const clientId = await createClient(server, 'Mailer Co');
  const cu = await server.sql.execute({
    sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?) RETURNING id',
    args: [clientId, 'mailer', 'mailer@example.test', await hashPassword('mailer-pass-1')],
  });
  await server.sql.execute({ sql: 'INSERT INTO client_feedback (media_id, client_user_id, feedback_text, rating) VALUES (?, ?, ?, 4)', args: [mediaId, Number(cu.rows[0]!.id), 'Sound is too quiet'] });

  await page.goto(`/admin/media?item=${mediaId}`);
  await expect(page).toHaveURL(new RegExp(`/auth\\?next=${encodeURIComponent(`/admin/media?item=${mediaId}`).replace(/[?]/g, '\\?')}$`));
  await hydrated(page, 'form[aria-label="Staff sign-in"]');
  await page.getByLabel('Username or Email').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();

  const dialog = page.getByRole('dialog', { name: 'Emailed Cut' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/media$/);
  await expect(dialog.getByRole('tab', { name: 'Feedback' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog).toContainText('Sound is too quiet');
});

test('an email link to /client/dashboard?item= signs the client in first, then opens that item', async ({ page, server }) => {
  const clientId = await createClient(server, 'Portal Mail Co');
  await server.sql.execute({
    sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?)',
    args: [clientId, 'portalmail', 'portalmail@example.test', await hashPassword('portal-mail-1')],
  });
  const mediaId = await insertMedia(server, { title: 'Portal Mail Cut', clientIds: [clientId] });

  await page.goto(`/client/dashboard?item=${mediaId}`);
  await expect(page).toHaveURL(/\/client\/login\?next=/);
  await hydrated(page, 'form[aria-label="Client sign-in"]');
  await page.getByLabel('Username').fill('portalmail');
  await page.getByLabel('Password', { exact: true }).fill('portal-mail-1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('dialog', { name: /Portal Mail Cut/ })).toBeVisible();
});
