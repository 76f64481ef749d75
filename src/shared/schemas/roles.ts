// Role and permission payloads (001 §5, §7), shared by the API and the Roles & Permissions screen.
import { z } from '../zod.ts';
import { multilineText, nameText, plainText } from './text.ts';

/** 'verb:resource', lower case, e.g. view:media or assign:client. */
export const PERMISSION_NAME = /^[a-z][a-z-]*:[a-z][a-z-]*$/;

const description = multilineText('Description', 500).default('');

export const roleSchema = z.object({
  // A name staff tell apart by sight (look-alikes are refused too: accounts/name-key.ts).
  name: nameText('Name', 50, { required: true }),
  description,
});
export type RoleInput = z.infer<typeof roleSchema>;

export const permissionSchema = z.object({
  name: plainText('Name', 64, { required: true }).regex(PERMISSION_NAME, "Name must look like 'verb:resource' in lower case, e.g. view:media"),
  description,
});
export type PermissionInput = z.infer<typeof permissionSchema>;

export interface PermissionRow {
  id: number;
  name: string;
  description: string | null;
  /** Seeded permissions the app checks; only custom ones can be deleted. */
  builtIn?: boolean;
}

export interface RoleRow {
  id: number;
  name: string;
  description: string | null;
  isProtected: boolean;
  /** Users holding it must sign in with a second factor (issue 56). */
  requiresSecondFactor: boolean;
  permissions: PermissionRow[];
}
