import { useState } from 'react';
import { ChevronDown, LayoutDashboard, LogOut } from 'lucide-react';
import { logoutStaff } from '../../shared/logout.ts';
import { Menu } from '../ui/Menu.tsx';

export interface SignedInUser {
  username: string;
  email: string;
  dashboardHref: string;
}

/** The signed-in staff user's menu in the top navigation: who, Dashboard, Logout (000 §2). */
export default function UserMenu({ username, email, dashboardHref }: SignedInUser) {
  const [signedOut, setSignedOut] = useState(false);

  if (signedOut) {
    return (
      <a href="/client/login" className="inline-flex h-10 items-center rounded-md border border-accent px-4 text-sm font-medium text-fg hover:bg-accent hover:text-accent-fg">
        Client Portal
      </a>
    );
  }

  return (
    <Menu
      label="Account"
      labelTrigger={false}
      triggerTestId="user-menu-button"
      triggerClassName="inline-flex h-10 items-center gap-2 rounded-md px-2 text-sm font-medium hover:bg-muted"
      panelClassName="w-64"
      trigger={
        <>
          <span aria-hidden="true" className="flex h-7 w-7 items-center justify-center rounded-full bg-accent text-xs font-semibold uppercase text-accent-fg">
            {username.slice(0, 1)}
          </span>
          <span className="sr-only">Account menu for </span>
          {username}
          <ChevronDown size={14} aria-hidden="true" />
        </>
      }
      header={
        <>
          <p className="truncate text-sm font-semibold" data-testid="user-menu-username">{username}</p>
          <p className="truncate text-xs text-fg-muted" data-testid="user-menu-email">{email}</p>
        </>
      }
      items={[
        { label: 'Dashboard', href: dashboardHref, icon: <LayoutDashboard size={16} aria-hidden="true" /> },
        {
          label: 'Logout',
          icon: <LogOut size={16} aria-hidden="true" />,
          onSelect: () => void logoutStaff({ onLocalSignOut: () => setSignedOut(true) }),
        },
      ]}
    />
  );
}
