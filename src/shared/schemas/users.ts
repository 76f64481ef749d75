// Staff user payloads (001 §5, §7), shared by /api/users and the User Management screen.
import { z } from '../zod.ts';
import { nameText } from './text.ts';

/** Minimum length whenever an admin sets a staff password (001 §9). */
export const USER_PASSWORD_MIN = 6;
export const PASSWORD_TOO_SHORT = `Password must be at least ${USER_PASSWORD_MIN} characters`;
export const PASSWORDS_DONT_MATCH = "Passwords don't match";

const required = (label: string, max: number) => nameText(label, max, { required: true });

export const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(64, 'Username must be at most 64 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may only use letters, digits, dots, dashes and underscores');
export const email = z.string({ error: 'Email is required' }).trim().pipe(z.email('Enter a valid email address').max(254));
export const password = z
  .string({ error: 'Password is required' })
  .min(USER_PASSWORD_MIN, PASSWORD_TOO_SHORT)
  .max(1024, 'Password must be at most 1024 characters');

const details = {
  username,
  email,
  forename: required('First name', 100),
  surname: required('Last name', 100),
  displayName: required('Display name', 200),
};

export const createUserSchema = z.object({ ...details, password });
export type CreateUser = z.infer<typeof createUserSchema>;

export const updateUserSchema = z.object({
  ...details,
  isActive: z.boolean({ error: 'isActive must be true or false' }),
  // Sent only when the admin typed a new one.
  password: password.optional(),
});
export type UpdateUser = z.infer<typeof updateUserSchema>;

export const userRolesSchema = z.object({
  roleIds: z
    .array(z.number({ error: 'roleIds must be a list of role ids' }).int().positive(), { error: 'roleIds must be a list of role ids' })
    .max(100),
});

/** The Create New User form: the confirmation is checked here and never sent. */
export const createUserFormSchema = createUserSchema
  .extend({ confirmPassword: z.string().min(1, 'Please confirm password') })
  // `when` checks the match even while other fields are still invalid.
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DONT_MATCH, path: ['confirmPassword'], when: () => true });

/** The Edit User form: an empty new password keeps the current one. */
export const editUserFormSchema = updateUserSchema
  .omit({ password: true })
  .extend({
    newPassword: z.string().max(1024),
    confirmPassword: z.string().max(1024),
  })
  .refine((v) => v.newPassword === '' || v.newPassword.length >= USER_PASSWORD_MIN, {
    message: PASSWORD_TOO_SHORT,
    path: ['newPassword'],
    when: () => true,
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: PASSWORDS_DONT_MATCH, path: ['confirmPassword'], when: () => true });

export interface UserRoleRef {
  id: number;
  name: string;
}

/** A staff user as GET /api/users lists it (never a password hash). */
export interface UserRow {
  id: string;
  username: string;
  email: string;
  forename: string;
  surname: string;
  displayName: string;
  isActive: boolean;
  createdAt: string;
  roles: UserRoleRef[];
  /** An authenticator app is set up (issue 56). */
  secondFactor: boolean;
  /** A role of the user requires one. */
  secondFactorRequired: boolean;
}
