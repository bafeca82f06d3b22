/**
 * Our Editor.js "Support this post" tool: the writer places the card where readers should meet
 * it. It has no settings (its data is `{}`); in the editor it is a placeholder, and the post page
 * draws the real card (amounts, message, Pay) in its place.
 */
import type { BlockTool, BlockToolConstructorOptions } from '@editorjs/editorjs';

export const TIP_BLOCK_TITLE = 'Support this post';
export const TIP_BLOCK_NOTE = 'Readers see the support card here: suggested amounts, an optional message and Pay. Set the amounts in Plans & earnings → Tips.';

const ICON =
  '<svg width="17" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8l1 1L12 21l7.8-7.6 1-1a5.5 5.5 0 0 0 0-7.8z"/></svg>';

export class TipTool implements BlockTool {
  static get toolbox() {
    return { title: TIP_BLOCK_TITLE, icon: ICON };
  }

  static get isReadOnlySupported() {
    return true;
  }

  // The block has no settings: Editor.js keeps whatever it was given, and this tool saves `{}`.
  constructor(_options: BlockToolConstructorOptions<Record<string, never>>) {}

  render(): HTMLElement {
    const card = document.createElement('div');
    card.className = 'tip-tool';
    card.setAttribute('role', 'group');
    card.setAttribute('aria-label', `${TIP_BLOCK_TITLE} card`);
    card.contentEditable = 'false';
    const title = document.createElement('strong');
    title.className = 'tip-tool__title';
    title.textContent = TIP_BLOCK_TITLE;
    const note = document.createElement('p');
    note.className = 'tip-tool__note';
    note.textContent = TIP_BLOCK_NOTE;
    card.append(title, note);
    return card;
  }

  save(): Record<string, never> {
    return {};
  }
}
