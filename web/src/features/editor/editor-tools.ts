/** The Editor.js tools of the post editor: the official ones plus our image, poll and support-card tools. */
import Checklist from '@editorjs/checklist';
import Code from '@editorjs/code';
import Delimiter from '@editorjs/delimiter';
import type { ToolConstructable, ToolSettings } from '@editorjs/editorjs';
import Embed from '@editorjs/embed';
import Header from '@editorjs/header';
import InlineCode from '@editorjs/inline-code';
import List from '@editorjs/list';
import Marker from '@editorjs/marker';
import Quote from '@editorjs/quote';
import Table from '@editorjs/table';
import { EMBED_PROVIDERS } from '@/lib/embeds';
import { ImageTool } from './tools/image-tool';
import { PollTool } from './tools/poll-tool';
import { TipTool } from './tools/tip-tool';

const tool = (cls: unknown) => cls as ToolConstructable;

export function editorTools(): Record<string, ToolConstructable | ToolSettings> {
  return {
    header: { class: tool(Header), inlineToolbar: true, config: { levels: [2, 3, 4], defaultLevel: 2 } },
    list: { class: tool(List), inlineToolbar: true, config: { defaultStyle: 'unordered' } },
    checklist: { class: tool(Checklist), inlineToolbar: true },
    quote: { class: tool(Quote), inlineToolbar: true },
    code: { class: tool(Code) },
    delimiter: { class: tool(Delimiter) },
    table: { class: tool(Table), inlineToolbar: true, config: { rows: 2, cols: 2, withHeadings: true } },
    // Only the providers a post may show (lib/embeds.ts; the server accepts the same ones).
    embed: { class: tool(Embed), config: { services: Object.fromEntries(Object.keys(EMBED_PROVIDERS).map((s) => [s, true])) } },
    image: { class: tool(ImageTool) },
    poll: { class: tool(PollTool) },
    tip: { class: tool(TipTool) },
    inlineCode: { class: tool(InlineCode), shortcut: 'CMD+SHIFT+C' },
    marker: { class: tool(Marker), shortcut: 'CMD+SHIFT+M' },
  };
}
