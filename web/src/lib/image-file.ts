/**
 * Images chosen in the browser become base64 data URLs before they are sent (never `blob:`
 * addresses). The limits are the server's: PNG, JPEG, GIF or WebP up to 5 MB each, and a request
 * body of at most 8 MB in all.
 */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const IMAGE_LIMIT_TEXT = 'PNG, JPEG, GIF or WebP, up to 5 MB.';

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** Why a file cannot be used as an image, or null when it can. */
export function imageProblem(file: { type: string; size: number; name?: string }): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return `“${file.name ?? 'This file'}” is not a PNG, JPEG, GIF or WebP image.`;
  if (file.size > MAX_IMAGE_BYTES) return `“${file.name ?? 'This image'}” is ${formatBytes(file.size)}; images may be up to 5 MB.`;
  return null;
}

/** The file as a base64 data URL. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('The image could not be read.')));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read.'));
    reader.readAsDataURL(file);
  });
}

/** Checks a file and reads it: `{ url }` or `{ error }`. */
export async function imageToDataUrl(file: File): Promise<{ url: string } | { error: string }> {
  const problem = imageProblem(file);
  if (problem) return { error: problem };
  try {
    return { url: await readAsDataUrl(file) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : 'The image could not be read.' };
  }
}

/** Whether an address is a `blob:` one (the server refuses them). */
export const isBlobUrl = (url: string | null | undefined) => typeof url === 'string' && /^\s*blob:/i.test(url);
