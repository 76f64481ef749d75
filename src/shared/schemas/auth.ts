import { z } from '../zod.ts';
import { nameText, plainText } from './text.ts';
import { username } from './users.ts';

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

export const registerSchema = z.object({
  // The same rule as when an admin creates a user: ASCII only, so no look-alike letters.
  username,
  email: z.email('Enter a valid email address').max(254),
  password: z.string().min(8, 'Password must be at least 8 characters').max(1024),
  forename: nameText('First name', 100).optional(),
  surname: nameText('Last name', 100).optional(),
  displayName: nameText('Display name', 200).optional(),
});
export type Registration = z.infer<typeof registerSchema>;
