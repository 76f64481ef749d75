// The audit log's kinds and the shapes its screen reads (issue 56). Both sides import this:
// the server writes these kinds, the admin screen names them and offers them as a filter.

/** Every kind of row, with the label the screen shows; grouped as the filter lists them. */
export const AUDIT_KINDS = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed',
  'sign_in.throttled': 'Sign-in throttled',
  'factor.added': 'Second factor added',
  'factor.removed': 'Second factor removed',
  'factor.renamed': 'Passkey renamed',
  'factor.recovery_codes_renewed': 'Recovery codes renewed',
  'factor.browsers_forgotten': 'Trusted browsers forgotten',
  'factor.proof_refused': 'Second factor proof refused',
  'user.created': 'User created',
  'user.updated': 'User changed',
  'user.deleted': 'User deleted',
  'user.roles_changed': 'User roles changed',
  'user.second_factor_reset': 'User second factor reset',
  'role.created': 'Role created',
  'role.updated': 'Role changed',
  'role.deleted': 'Role deleted',
  'permission.created': 'Permission created',
  'permission.deleted': 'Permission deleted',
  'permission.granted': 'Permission given to a role',
  'permission.revoked': 'Permission taken from a role',
  'client.created': 'Client created',
  'client.updated': 'Client changed',
  'client.password_reset': 'Client password reset',
  'client.second_factor_reset': 'Client authenticator app reset',
  'client.deleted': 'Client deleted',
  'client.exported': 'Client data exported',
  'client.erased': 'Client erased',
  'share_link.created': 'Share link made',
  'share_link.edited': 'Share link edited',
  'share_link.address_copied': 'Share link address copied',
  'share_link.new_address': 'Share link given a new address',
  'share_link.revoked': 'Share link revoked',
  'download.original': 'Original downloaded',
  'download.gallery': 'Gallery high-res downloaded',
  'approval.decided': 'Approval decided',
  'round.started': 'Review round started',
  'round.cancelled': 'Review round cancelled',
  'round.decided': 'Review round decision',
  'selection.submitted': 'Selection submitted',
  'settings.changed': 'Settings changed',
  'backup.made': 'Backup made',
  'backup.failed': 'Backup failed',
  'backup.restored': 'Backup restored',
  'live.started': 'Live session started',
  'audit.exported': 'Audit log exported',
  'audit.pruned': 'Audit log pruned',
} as const;

export type AuditKind = keyof typeof AUDIT_KINDS;

export const isAuditKind = (value: string): value is AuditKind => Object.hasOwn(AUDIT_KINDS, value);

/** The groups of the kind filter, by the part before the dot. */
export const AUDIT_GROUPS: Record<string, string> = {
  sign_in: 'Sign-ins',
  factor: 'Second factors',
  user: 'Users',
  role: 'Roles',
  permission: 'Permissions',
  client: 'Clients',
  share_link: 'Share links',
  download: 'Downloads',
  approval: 'Review',
  selection: 'Review',
  settings: 'Settings',
  backup: 'Backups',
  live: 'Live review',
  audit: 'Audit log',
};

/** One row as the screen and the CSV show it. */
export interface AuditRowView {
  id: number;
  at: string;
  actorType: 'staff' | 'client' | 'guest' | 'system' | 'anonymous';
  actorKey: string;
  actorName: string;
  ip: string | null;
  agent: string;
  kind: string;
  objectType: string | null;
  objectId: string | null;
  objectName: string;
  factor: string | null;
  detail: string;
}

export interface AuditPage {
  rows: AuditRowView[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  next: string | null;
}

/** A person the filter offers: staff, a client, or a share link (its guests). */
export interface AuditPerson {
  key: string;
  name: string;
}
