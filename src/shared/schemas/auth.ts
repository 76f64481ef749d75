import { z } from '../zod.ts';
import { nameText, plainText } from './text.ts';
import { username } from './users.ts';
import { checkAccountPassword, newPassword } from '../passwords.ts';

export const staffLoginSchema = z.object({
  username: plainText('Username or email', 254, { required: true }),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type StaffLogin = z.infer<typeof staffLoginSchema>;

export const clientLoginSchema = z.object({
  username: plainText('Username', 254, { required: true }),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type ClientLogin = z.infer<typeof clientLoginSchema>;

export const registerSchema = z
  .object({
    // The same rules as when an admin creates a user: ASCII only, so no look-alike letters, and a
    // staff password (issue 53).
    username,
    email: z.email('Enter a valid email address').max(254),
    password: newPassword('staff'),
    forename: nameText('First name', 100).optional(),
    surname: nameText('Last name', 100).optional(),
    displayName: nameText('Display name', 200).optional(),
  })
  .superRefine(checkAccountPassword('staff'));
export type Registration = z.infer<typeof registerSchema>;
