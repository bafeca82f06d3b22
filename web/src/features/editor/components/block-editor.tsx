import EditorJS, { type OutputBlockData } from '@editorjs/editorjs';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import type { Block } from '@/types/entities';
import { editorTools } from '../editor-tools';

export interface BlockEditorHandle {
  /** The blocks as Editor.js saves them: `{id, type, data}`, exactly what the server validates. */
  save(): Promise<Block[]>;
}

interface BlockEditorProps {
  initialBlocks: Block[];
  /** Called (debounced by Editor.js's own change events) whenever the content changes. */
  onChange?: () => void;
  labelledBy: string;
  describedBy?: string;
}

/** Editor.js inside React: created once on mount with the initial blocks, destroyed on unmount. */
export const BlockEditor = forwardRef<BlockEditorHandle, BlockEditorProps>(function BlockEditor(
  { initialBlocks, onChange, labelledBy, describedBy },
  ref,
) {
  const holder = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorJS | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const initial = useRef(initialBlocks);

  useEffect(() => {
    if (!holder.current) return;
    const instance = new EditorJS({
      holder: holder.current,
      tools: editorTools(),
      data: { blocks: initial.current as OutputBlockData[] },
      placeholder: 'Tell your story… (press Tab or “+” for headings, lists, images, tables, polls, a support card)',
      autofocus: false,
      minHeight: 160,
      onChange: () => onChangeRef.current?.(),
    });
    editor.current = instance;
    return () => {
      editor.current = null;
      void instance.isReady.then(() => instance.destroy()).catch(() => {});
    };
  }, []);

  useImperativeHandle(ref, () => ({
    async save() {
      const instance = editor.current;
      if (!instance) return [];
      await instance.isReady;
      const output = await instance.save();
      return output.blocks.map((b) => ({ id: b.id ?? '', type: b.type, data: b.data as Record<string, unknown> }));
    },
  }));

  return <div ref={holder} className="block-editor" role="group" aria-labelledby={labelledBy} aria-describedby={describedBy} data-testid="block-editor" />;
});
