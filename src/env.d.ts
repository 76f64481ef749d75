/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Signed-in staff user, or null. */
    user: import('./server/auth/principals.ts').StaffUser | null;
    /** Role names of the staff user (empty when signed out). */
    roles: string[];
    /** Permission names of the staff user (empty when signed out). */
    permissions: string[];
    /** Signed-in client user, or null. */
    clientUser: import('./server/auth/principals.ts').ClientPrincipal | null;
  }
}
