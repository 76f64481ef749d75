// Notifications (issue 17): recordEvent is the one way in; see README "Notifications".
export { recordEvent, type NotificationEvent } from './record.ts';
