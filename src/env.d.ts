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
    /** The staff and client sessions of the request: id and the second factor they were made with (issue 56). */
    staffSession: { id: string; secondFactor: string | null } | null;
    clientSession: { id: string; secondFactor: string | null } | null;
    /** A role of the staff user requires a second factor and none is set up: only enrolment and sign-out are open. */
    mustEnrol: boolean;
  }
}
