/**
 * The embed providers a post may show (the server accepts the same list): each gives the address
 * prefix its player lives at. Anything else is not framed.
 */
export const EMBED_PROVIDERS = {
  youtube: ['https://www.youtube.com/embed/', 'https://www.youtube-nocookie.com/embed/'],
  vimeo: ['https://player.vimeo.com/video/'],
  codepen: ['https://codepen.io/'],
} as const;

export type EmbedService = keyof typeof EMBED_PROVIDERS;

/** The player address when `service` is allowed and `embed` is one of its players; else null. */
export function allowedEmbed(service: unknown, embed: unknown): string | null {
  if (typeof service !== 'string' || typeof embed !== 'string') return null;
  const prefixes = (EMBED_PROVIDERS as Record<string, readonly string[]>)[service];
  if (!prefixes) return null;
  if (/[\s"'<>\\]/.test(embed)) return null;
  if (!prefixes.some((p) => embed.startsWith(p))) return null;
  if (service === 'codepen' && !embed.includes('/embed/')) return null;
  return embed;
}
