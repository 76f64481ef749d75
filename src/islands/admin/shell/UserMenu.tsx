import { useState } from 'react';
import { Bell, ChevronDown, ExternalLink, LogOut, ShieldCheck } from 'lucide-react';
import { logoutStaff } from '../../../shared/logout.ts';
import { signOutLive } from '../../live/channel.ts';
import { Menu } from '../../ui/Menu.tsx';
import { NotifyModeDialog, STAFF_NOTIFY_ABOUT } from '../../notifications/NotifyModeDialog.tsx';

/** The signed-in user's menu: name, email, Notifications (issue 17), Security (issue 56), Public Site, Logout (001 §2). */
export default function UserMenu({ name, email }: { name: string; email: string }) {
  const [pending, setPending] = useState(false);
  const [notifyOpen, setNotifyOpen] = useState(false);
  return (
    <>
    <Menu
      label="User menu"
      labelTrigger={false}
      triggerTestId="user-menu-button"
      triggerClassName="inline-flex h-10 max-w-48 items-center gap-1.5 rounded-md px-3 text-sm font-medium hover:bg-muted"
      panelClassName="w-64"
      trigger={
        <>
          <span className="truncate">{name}</span>
          <ChevronDown size={16} aria-hidden="true" />
        </>
      }
      header={
        <>
          <p className="truncate text-sm font-medium">{name}</p>
          <p className="truncate text-xs text-fg-muted">{email}</p>
        </>
      }
      items={[
        { label: 'Public Site', href: '/', icon: <ExternalLink size={16} aria-hidden="true" /> },
        { label: 'Notifications', icon: <Bell size={16} aria-hidden="true" />, onSelect: () => setNotifyOpen(true) },
        { label: 'Security', href: '/admin/security', icon: <ShieldCheck size={16} aria-hidden="true" /> },
        {
          label: 'Logout',
          icon: <LogOut size={16} aria-hidden="true" />,
          disabled: pending,
          onSelect: () => {
            setPending(true);
            signOutLive();
            void logoutStaff({ redirectTo: '/auth' });
          },
        },
      ]}
    />
    <NotifyModeDialog
      open={notifyOpen}
      onClose={() => setNotifyOpen(false)}
      endpoint="/api/user/notifications"
      about={STAFF_NOTIFY_ABOUT}
    />
    </>
  );
}
