import { useEffect, useState, type ReactNode } from 'react';
import { formatDate } from '../../../shared/format.ts';
import {
  Briefcase,
  Film,
  Image as ImageIcon,
  Inbox,
  Palette,
  Shield,
  Star,
  Upload,
  UserCog,
  UserPlus,
  Users,
  Video,
  Hourglass,
  MessageSquareWarning,
} from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { Badge } from '../../ui/Badge.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import type { BackupStatus as BackupStatusData } from '../../../shared/backup-status.ts';
import { BackupStatus } from './BackupStatus.tsx';
import type { RepairProgress } from '../../../shared/library-repair.ts';
import { LibraryRepair } from './LibraryRepair.tsx';
import { useLiveReload } from '../../live/useLive.ts';

export interface Stats {
  totalMedia: number;
  activeClients: number;
  staffMembers: number;
  featuredMedia: number;
  totalRoles: number;
  totalPermissions: number;
  newEnquiries: number;
  awaitingApproval: number;
  changesRequested: number;
}

export interface RecentItem {
  id: number;
  title: string;
  type: 'image' | 'video';
  isFeatured: boolean;
  createdAt: string;
}


function Figure({ value, testId }: { value: number | undefined; testId: string }) {
  if (value === undefined) return <Skeleton className="h-8 w-16" />;
  return (
    <span className="text-3xl font-bold tabular-nums" data-testid={testId}>
      {value}
    </span>
  );
}

function StatCard({ label, value, icon, href, testId }: { label: string; value?: number; icon: ReactNode; href?: string; testId: string }) {
  const body = (
    <Card className={`h-full ${href ? 'transition-colors hover:border-accent' : ''}`}>
      <CardBody className="flex items-start justify-between gap-4">
        <div className="space-y-2">
          <p className="text-sm font-medium text-fg-muted">{label}</p>
          <Figure value={value} testId={testId} />
        </div>
        <span className="rounded-lg bg-muted p-2 text-accent">{icon}</span>
      </CardBody>
    </Card>
  );
  return href ? (
    <a href={href} className="block rounded-xl">
      {body}
    </a>
  ) : (
    body
  );
}

const QUICK_ACTIONS = [
  { href: '/admin/media?upload=true', title: 'Upload Media', text: 'Add new images and videos', icon: <Upload size={20} /> },
  { href: '/admin/clients', title: 'Manage Clients', text: 'Client accounts and access', icon: <Briefcase size={20} /> },
  { href: '/admin/users', title: 'Manage Users', text: 'Staff accounts and roles', icon: <UserCog size={20} /> },
  { href: '/admin/roles', title: 'Roles & Permissions', text: 'Control who can do what', icon: <Shield size={20} /> },
  { href: '/admin/website-customization', title: 'Website Customization', text: 'Background images', icon: <Palette size={20} /> },
  { href: '/portfolio', title: 'View Portfolio', text: 'See the public portfolio', icon: <Film size={20} /> },
];

/** The admin dashboard (001 §2): counts from GET /api/stats, recent uploads rendered by the server. */
export default function Dashboard({
  recent,
  backup,
  repair = null,
  contactPlaceholders = [],
  canEditWebsite = false,
}: {
  recent: RecentItem[];
  backup?: BackupStatusData;
  /** The library check after an upgrade, while it runs (issue 39). */
  repair?: RepairProgress | null;
  /** Contact fields ('email', 'phone', 'address') the public site shows as placeholders. */
  contactPlaceholders?: string[];
  canEditWebsite?: boolean;
}) {
  const [stats, setStats] = useState<Stats | null>(null);
  useEffect(() => {
    apiJson<Stats>('GET', '/api/stats')
      .then(setStats)
      .catch((e) => toast({ title: 'Failed to load statistics', description: errorMessage(e), variant: 'destructive' }));
  }, []);
  // The counts follow what happens elsewhere, live (issue 41); a failed refresh keeps the last.
  useLiveReload(['media', 'version', 'approval', 'assignment', 'note', 'feedback'], () => void apiJson<Stats>('GET', '/api/stats').then(setStats, () => undefined));
  const s = stats ?? undefined;

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
        <p className="mt-1 text-fg-muted">Manage your cinematic media production platform</p>
      </div>

      {contactPlaceholders.length > 0 && (
        <div role="status" data-testid="placeholder-contact-warning" className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-500/60 bg-amber-500/10 p-4 text-sm">
          <p className="min-w-0 break-words">
            <span className="font-semibold">Placeholder contact details are live.</span> The public site shows a placeholder {contactPlaceholders.join(', ')}.
          </p>
          {canEditWebsite && (
            <a href="/admin/website-customization?tab=contact" className="font-medium text-accent underline-offset-4 hover:underline">
              Set contact details
            </a>
          )}
        </div>
      )}

      <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Media" value={s?.totalMedia} icon={<Film size={20} />} href="/admin/media" testId="stat-total-media" />
        <StatCard label="Active Clients" value={s?.activeClients} icon={<Briefcase size={20} />} href="/admin/clients" testId="stat-active-clients" />
        <StatCard label="Staff Members" value={s?.staffMembers} icon={<Users size={20} />} testId="stat-staff-members" />
        <StatCard label="Featured Media" value={s?.featuredMedia} icon={<Star size={20} />} testId="stat-featured-media" />
      </section>

      <CountLink href="/admin/enquiries" icon={<Inbox size={20} aria-hidden="true" />} label="New Enquiries" value={s?.newEnquiries} testId="stat-new-enquiries" />
      <CountLink
        href="/admin/media?approval=awaiting"
        icon={<Hourglass size={20} aria-hidden="true" />}
        label="Awaiting client approval"
        value={s?.awaitingApproval}
        testId="stat-awaiting-approval"
      />
      <CountLink
        href="/admin/media?approval=changes_requested"
        icon={<MessageSquareWarning size={20} aria-hidden="true" />}
        label="Changes requested"
        value={s?.changesRequested}
        testId="stat-changes-requested"
      />

      <LibraryRepair initial={repair} />

      {backup && <BackupStatus status={backup} />}

      <section aria-labelledby="quick-actions">
        <h2 id="quick-actions" className="mb-3 text-lg font-semibold">
          Quick Actions
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {QUICK_ACTIONS.map((a) => (
            <a key={a.title} href={a.href} className="flex items-center gap-4 rounded-xl border border-line bg-raised p-4 shadow-sm transition-colors hover:border-accent">
              <span className="rounded-lg bg-muted p-2.5 text-accent" aria-hidden="true">
                {a.icon}
              </span>
              <span>
                <span className="block font-medium">{a.title}</span>
                <span className="block text-sm text-fg-muted">{a.text}</span>
              </span>
            </a>
          ))}
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Recent Media Uploads" description="The latest images and videos" />
          <CardBody>
            {recent.length === 0 ? (
              <p className="py-6 text-center text-sm text-fg-muted">No media uploaded yet</p>
            ) : (
              <ul className="divide-y divide-line" data-testid="recent-media">
                {recent.map((m) => (
                  <li key={m.id} className="flex items-center gap-3 py-3">
                    {/* The type is spelled out beside the date, so the icon stays silent. */}
                    <span className="rounded-md bg-muted p-2 text-fg-muted" aria-hidden="true" data-testid="recent-media-icon">
                      {m.type === 'video' ? <Video size={16} /> : <ImageIcon size={16} />}
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-sm font-medium" title={m.title}>
                        {m.title}
                      </span>
                      <span className="block text-xs text-fg-muted">
                        <span data-testid="recent-media-type">{m.type === 'video' ? 'Video' : 'Image'}</span>
                        <span aria-hidden="true"> · </span>
                        <time dateTime={m.createdAt}>{formatDate(m.createdAt)}</time>
                      </span>
                    </span>
                    {m.isFeatured && <Badge tone="accent">Featured</Badge>}
                  </li>
                ))}
              </ul>
            )}
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="System Overview" description="Access control and featured content" />
          <CardBody className="space-y-4">
            <dl className="divide-y divide-line">
              {[
                ['Total Roles', s?.totalRoles, 'stat-total-roles'],
                ['Total Permissions', s?.totalPermissions, 'stat-total-permissions'],
                ['Featured Content', s?.featuredMedia, 'stat-featured-content'],
              ].map(([label, value, id]) => (
                <div key={label as string} className="flex items-center justify-between py-2.5">
                  <dt className="text-sm text-fg-muted">{label}</dt>
                  <dd className="text-sm font-semibold tabular-nums">
                    {value === undefined ? <Skeleton className="h-4 w-8" /> : <span data-testid={id as string}>{value as number}</span>}
                  </dd>
                </div>
              ))}
            </dl>
            <div className="flex flex-wrap gap-2">
              <a href="/admin/media?upload=true" className={buttonClass('primary', 'md')}>
                <Upload size={16} aria-hidden="true" /> Upload New Media
              </a>
              <a href="/admin/users" className={buttonClass('outline', 'md')}>
                <UserPlus size={16} aria-hidden="true" /> Add New User
              </a>
            </div>
          </CardBody>
        </Card>
      </div>
    </div>
  );
}

/** A wide card linking to a list, with the count of what waits there (a skeleton while loading). */
function CountLink({ href, icon, label, value, testId }: { href: string; icon: ReactNode; label: string; value: number | undefined; testId: string }) {
  return (
    <a href={href} className="flex items-center justify-between gap-4 rounded-xl border border-line bg-raised p-4 shadow-sm hover:border-accent">
      <span className="flex items-center gap-3">
        <span className="rounded-lg bg-muted p-2 text-accent">{icon}</span>
        <span className="font-medium">{label}</span>
      </span>
      {value !== undefined ? (
        <Badge tone={value ? 'accent' : 'default'}>
          <span data-testid={testId}>{value}</span>
        </Badge>
      ) : (
        <Skeleton className="h-5 w-8" />
      )}
    </a>
  );
}
