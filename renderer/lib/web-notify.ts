import type { Attention } from '../../shared/notify/attention';
import { attentionText } from '../../shared/notify/attention-words';
import { activeTranslator } from '../i18n/active';

// The browser host's way of saying "done" (`batchroom ui`): a Web Notification, once the page was allowed to show
// them. The Electron app never uses this — its main process shows the same `app:attention` natively (and the window's
// session denies the notifications permission anyway).

/** The part of the DOM's Notification this needs (tests pass a fake). */
export interface WebNotificationApi {
  readonly permission: NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  new (title: string, options?: NotificationOptions): { onclick: ((this: unknown, event: Event) => unknown) | null; close(): void };
}

function api(given?: WebNotificationApi): WebNotificationApi | null {
  if (given) return given;
  return typeof Notification === 'undefined' ? null : (Notification as unknown as WebNotificationApi);
}

/** 'unsupported' where the browser has no notifications (or the page is not a secure context). */
export function webNotificationPermission(given?: WebNotificationApi): NotificationPermission | 'unsupported' {
  return api(given)?.permission ?? 'unsupported';
}

/** Asks the browser — call it from a click only: browsers ignore (or block for good) a request made without one. */
export async function requestWebNotifications(given?: WebNotificationApi): Promise<NotificationPermission | 'unsupported'> {
  const notifications = api(given);
  if (!notifications) return 'unsupported';
  if (notifications.permission !== 'default') return notifications.permission;
  return notifications.requestPermission();
}

/**
 * Shows `attention` when the page may; nothing otherwise (never asks here: no user gesture). A click brings the tab
 * forward and runs `onClick` (Review of that batch). One notification per batch at a time (`tag`): a newer replaces it.
 */
export function showWebAttention(attention: Attention, onClick: () => void, given?: WebNotificationApi): boolean {
  const notifications = api(given);
  if (!notifications || notifications.permission !== 'granted') return false;
  // Said in the page's language (the core sends message keys beside its English sentence).
  const { title, body } = attentionText(attention, activeTranslator());
  const shown = new notifications(title, { body, tag: `batchroom-${attention.batchId ?? attention.kind}` });
  shown.onclick = () => {
    if (typeof window !== 'undefined') window.focus();
    onClick();
    shown.close();
  };
  return true;
}
