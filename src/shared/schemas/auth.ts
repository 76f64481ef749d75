import { z } from '../zod.ts';

export const staffLoginSchema = z.object({
  username: z.string({ error: 'Username or email is required' }).trim().min(1, 'Username or email is required').max(254),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type StaffLogin = z.infer<typeof staffLoginSchema>;

export const clientLoginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(254),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type ClientLogin = z.infer<typeof clientLoginSchema>;

export const registerSchema = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters').max(64),
  email: z.email('Enter a valid email address').max(254),
  password: z.string().min(8, 'Password must be at least 8 characters').max(1024),
  forename: z.string().trim().max(100).optional(),
  surname: z.string().trim().max(100).optional(),
  displayName: z.string().trim().max(200).optional(),
});
export type Registration = z.infer<typeof registerSchema>;
