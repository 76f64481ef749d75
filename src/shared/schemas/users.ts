// Staff user payloads (001 §5, §7), shared by /api/users and the User Management screen.
import { z } from '../zod.ts';
import { nameText } from './text.ts';
import { checkAccountPassword, newPassword, passwordProblem } from '../passwords.ts';

export const PASSWORDS_DONT_MATCH = "Passwords don't match";

const required = (label: string, max: number) => nameText(label, max, { required: true });

export const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(64, 'Username must be at most 64 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may only use letters, digits, dots, dashes and underscores');
export const email = z.string({ error: 'Email is required' }).trim().pipe(z.email('Enter a valid email address').max(254));
/** A staff password as it is set (issue 53: NIST SP 800-63B, src/shared/passwords.ts). */
const password = newPassword('staff');

const details = {
  username,
  email,
  forename: required('First name', 100),
  surname: required('Last name', 100),
  displayName: required('Display name', 200),
};

const createUserFields = z.object({ ...details, password });
export const createUserSchema = createUserFields.superRefine(checkAccountPassword('staff'));
export type CreateUser = z.infer<typeof createUserSchema>;

const updateUserFields = z.object({
  ...details,
  isActive: z.boolean({ error: 'isActive must be true or false' }),
  // Sent only when the admin typed a new one.
  password: password.optional(),
});
export const updateUserSchema = updateUserFields.superRefine(checkAccountPassword('staff'));
export type UpdateUser = z.infer<typeof updateUserSchema>;

export const userRolesSchema = z.object({
  roleIds: z
    .array(z.number({ error: 'roleIds must be a list of role ids' }).int().positive(), { error: 'roleIds must be a list of role ids' })
    .max(100),
});

/** The Create New User form: the confirmation is checked here and never sent. */
export const createUserFormSchema = createUserFields
  .extend({ confirmPassword: z.string().min(1, 'Please confirm password') })
  .superRefine(checkAccountPassword('staff'))
  // `when` checks the match even while other fields are still invalid.
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DONT_MATCH, path: ['confirmPassword'], when: () => true });

/** The Edit User form: an empty new password keeps the current one. */
export const editUserFormSchema = updateUserFields
  .omit({ password: true })
  .extend({
    newPassword: z.string().max(1024),
    confirmPassword: z.string().max(1024),
  })
  .superRefine((v, ctx) => {
    const problem = v.newPassword === '' ? null : passwordProblem(v.newPassword, 'staff', v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['newPassword'] });
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
