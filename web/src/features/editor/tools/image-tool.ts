/**
 * Our Editor.js image tool: pick or drop a file (or paste one), checked against the limits and
 * turned into a base64 data URL in the browser; a caption. Output: `{file: {url}, caption,
 * withBorder, stretched, withBackground}`, the block the server validates.
 */
import type { API, BlockTool, BlockToolConstructorOptions, PasteEvent } from '@editorjs/editorjs';
import { IMAGE_LIMIT_TEXT, IMAGE_TYPES, imageToDataUrl, isBlobUrl } from '@/lib/image-file';

export interface ImageData {
  file: { url: string };
  caption: string;
  withBorder: boolean;
  stretched: boolean;
  withBackground: boolean;
}

const ICON =
  '<svg width="17" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><rect x="3" y="3" width="18" height="18" rx="2"/><circle cx="9" cy="9" r="2"/><path d="m21 15-5-5L5 21"/></svg>';

export class ImageTool implements BlockTool {
  static get toolbox() {
    return { title: 'Image', icon: ICON };
  }

  static get isReadOnlySupported() {
    return true;
  }

  static get pasteConfig() {
    return { files: { mimeTypes: [...IMAGE_TYPES] } };
  }

  private data: ImageData;
  private readonly api: API;
  private readonly readOnly: boolean;
  private wrapper: HTMLElement | null = null;

  constructor({ data, api, readOnly }: BlockToolConstructorOptions<Partial<ImageData>>) {
    this.api = api;
    this.readOnly = readOnly;
    this.data = {
      file: { url: data?.file?.url ?? '' },
      caption: data?.caption ?? '',
      withBorder: Boolean(data?.withBorder),
      stretched: Boolean(data?.stretched),
      withBackground: Boolean(data?.withBackground),
    };
  }

  render(): HTMLElement {
    this.wrapper = document.createElement('div');
    this.wrapper.className = 'image-tool';
    this.draw();
    return this.wrapper;
  }

  private draw(error?: string) {
    const root = this.wrapper;
    if (!root) return;
    root.innerHTML = '';
    if (this.data.file.url) {
      const img = document.createElement('img');
      img.src = this.data.file.url;
      img.alt = '';
      img.className = 'image-tool__image';
      root.appendChild(img);
      const caption = document.createElement('div');
      caption.className = 'image-tool__caption cdx-input';
      caption.contentEditable = this.readOnly ? 'false' : 'true';
      caption.dataset.placeholder = 'Caption (optional)';
      caption.setAttribute('aria-label', 'Image caption');
      caption.innerHTML = this.data.caption;
      caption.addEventListener('input', () => (this.data.caption = caption.innerHTML));
      root.appendChild(caption);
      return;
    }
    if (this.readOnly) return;
    const zone = document.createElement('label');
    zone.className = 'image-tool__drop';
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = IMAGE_TYPES.join(',');
    input.className = 'image-tool__input';
    input.setAttribute('aria-label', 'Choose an image');
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (file) void this.load(file);
    });
    const text = document.createElement('span');
    text.textContent = 'Choose an image or drop it here';
    const hint = document.createElement('small');
    hint.className = 'image-tool__hint';
    hint.textContent = IMAGE_LIMIT_TEXT;
    zone.append(input, text, hint);
    zone.addEventListener('dragover', (e) => {
      e.preventDefault();
      zone.classList.add('image-tool__drop--over');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('image-tool__drop--over'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      e.stopPropagation();
      zone.classList.remove('image-tool__drop--over');
      const file = e.dataTransfer?.files?.[0];
      if (file) void this.load(file);
    });
    if (error) {
      const message = document.createElement('p');
      message.className = 'image-tool__error';
      message.setAttribute('role', 'alert');
      message.textContent = error;
      root.appendChild(message);
    }
    root.appendChild(zone);
  }

  private async load(file: File) {
    const result = await imageToDataUrl(file);
    if ('error' in result) {
      this.draw(result.error);
      this.api.notifier.show({ message: result.error, style: 'error' });
      return;
    }
    this.data.file.url = result.url;
    this.draw();
  }

  onPaste(event: PasteEvent) {
    if (event.type === 'file') {
      const file = (event.detail as { file: File }).file;
      void this.load(file);
    }
  }

  save(): ImageData {
    return { ...this.data, file: { url: this.data.file.url } };
  }

  /** An image block needs an image, and never a `blob:` address. */
  validate(data: ImageData): boolean {
    return Boolean(data.file?.url) && !isBlobUrl(data.file.url);
  }
}
