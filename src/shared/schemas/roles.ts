// Role and permission payloads (001 §5, §7), shared by the API and the Roles & Permissions screen.
import { z } from '../zod.ts';

/** 'verb:resource', lower case, e.g. view:media or assign:client. */
export const PERMISSION_NAME = /^[a-z][a-z-]*:[a-z][a-z-]*$/;

const description = z
  .string({ error: 'Description must be text' })
  .trim()
  .max(500, 'Description must be at most 500 characters')
  .default('');

export const roleSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(50, 'Name must be at most 50 characters'),
  description,
});
export type RoleInput = z.infer<typeof roleSchema>;

export const permissionSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(64, 'Name must be at most 64 characters')
    .regex(PERMISSION_NAME, "Name must look like 'verb:resource' in lower case, e.g. view:media"),
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
  permissions: PermissionRow[];
}
