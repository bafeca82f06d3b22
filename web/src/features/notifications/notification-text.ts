import type { UserNotification } from '@/types/entities';

const ADMIN_TYPES = new Set(['admin', 'admin_reply']);
const VERBS: Record<string, string> = {
  like: 'liked',
  bookmark: 'bookmarked',
  comment: 'commented on',
  reply: 'replied to',
};

export function isAdminType(type: string): boolean {
  return ADMIN_TYPES.has(type);
}

/** The line shown for a notification (seed 000 §2 "Notification dropdown"). */
export function notificationText(n: UserNotification): string {
  if (isAdminType(n.type)) return `Admin: ${n.content || 'No message'}`;
  const sender = n.sender?.name || 'User';
  const title = n.post?.title || 'unknown';
  if (n.type === 'new_post') return `${sender} published "${title}"`;
  // The server writes the whole line (who, how much, the post, their message).
  if (n.type === 'tip') return n.content || `${sender} tipped you for "${title}"`;
  if (n.type === 'appeal') {
    return `${sender} appealed the block of the post "${title}"${n.content ? `: ${n.content}` : ''}`;
  }
  const verb = VERBS[n.type] ?? 'interacted with';
  return `${sender} ${verb} your post "${title}"${n.content ? `: ${n.content}` : ''}`;
}

/** Where a notification leads: its navigateTo, else the inbox filtered by kind. */
export function notificationLink(n: UserNotification): string {
  if (n.navigateTo) return n.navigateTo;
  if (isAdminType(n.type)) return '/message-box?type=admin';
  return `/message-box?type=post&id=${encodeURIComponent(n._id)}`;
}
