// The Editor.js tools that ship without type declarations: each default-exports a tool class.
declare module '@editorjs/checklist' {
  import type { BlockToolConstructable } from '@editorjs/editorjs';
  const Checklist: BlockToolConstructable;
  export default Checklist;
}
declare module '@editorjs/marker' {
  import type { InlineToolConstructable } from '@editorjs/editorjs';
  const Marker: InlineToolConstructable;
  export default Marker;
}
// @editorjs/embed has declarations its package.json "exports" does not point at.
declare module '@editorjs/embed' {
  import type { BlockToolConstructable } from '@editorjs/editorjs';
  const Embed: BlockToolConstructable;
  export default Embed;
}
