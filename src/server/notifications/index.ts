// Notifications (issue 17): recordEvent is the one way in; see docs/notifications.md.
export { recordEvent, type NotificationEvent } from './record.ts';
