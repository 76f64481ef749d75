// A draggable permission in the 'Available Permissions' list.
import { useDraggable } from '@dnd-kit/core';
import { GripVertical, Key, Trash2 } from 'lucide-react';
import type { PermissionRow } from '../../../shared/schemas/roles.ts';

export function PermissionBody({ permission }: { permission: PermissionRow }) {
  return (
    <>
      <GripVertical size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-fg-muted" />
      <span className="min-w-0">
        <span className="flex items-center gap-1.5 font-mono text-sm font-medium">
          <Key size={12} aria-hidden="true" className="text-accent" />
          {permission.name}
        </span>
        {permission.description && <span className="block text-xs text-fg-muted">{permission.description}</span>}
      </span>
    </>
  );
}

export function PermissionItem({ permission, onDelete }: { permission: PermissionRow; onDelete?: () => void }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `permission-${permission.id}`, data: { permission } });
  return (
    <li className="flex items-stretch gap-1">
      <div
        ref={setNodeRef}
        {...attributes}
        {...listeners}
        data-testid="permission-item"
        data-permission={permission.name}
        className={`flex min-w-0 flex-1 cursor-grab touch-none items-start gap-2 rounded-lg border border-line bg-raised p-3 hover:border-accent focus-visible:outline-2 focus-visible:outline-accent ${isDragging ? 'opacity-40' : ''}`}
      >
        <PermissionBody permission={permission} />
      </div>
      {onDelete && !permission.builtIn && (
        <button
          type="button"
          onClick={onDelete}
          aria-label={`Delete permission ${permission.name}`}
          title={`Delete permission ${permission.name}`}
          className="shrink-0 rounded-lg border border-line px-2 text-fg-muted hover:border-danger hover:text-danger focus-visible:outline-2 focus-visible:outline-accent"
        >
          <Trash2 size={16} aria-hidden="true" />
        </button>
      )}
    </li>
  );
}
