// The support-card block in the editor: a placeholder with no settings, saved as `{}`.
import type { API, BlockToolConstructorOptions } from '@editorjs/editorjs';
import { editorTools } from '../editor-tools';
import { TIP_BLOCK_NOTE, TIP_BLOCK_TITLE, TipTool } from './tip-tool';

const options = { data: {}, readOnly: false, api: {} as API, config: {}, block: {} } as unknown as BlockToolConstructorOptions<Record<string, never>>;

describe('the tip tool', () => {
  it('is offered in the toolbox as "Support this post" and registered under the block type `tip`', () => {
    expect(TipTool.toolbox.title).toBe(TIP_BLOCK_TITLE);
    expect(TipTool.isReadOnlySupported).toBe(true);
    const registered = editorTools().tip;
    expect(registered).toMatchObject({ class: TipTool });
  });

  it('shows a placeholder card that cannot be typed into, and saves no data', () => {
    const tool = new TipTool(options);
    const card = tool.render();
    expect(card).toHaveAttribute('role', 'group');
    expect(card).toHaveAttribute('aria-label', 'Support this post card');
    expect(card.contentEditable).toBe('false');
    expect(card.textContent).toContain(TIP_BLOCK_TITLE);
    expect(card.textContent).toContain(TIP_BLOCK_NOTE);
    expect(tool.save()).toEqual({});
  });
});
