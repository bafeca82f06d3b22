import type { WordOp } from '../revision-types';

/** A run's text as [leading space, words, trailing space]: only the words are marked. */
function split(text: string): [string, string, string] {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  return m ? [m[1], m[2], m[3]] : ['', text, ''];
}

/**
 * Text with its word-level changes: added words in <ins>, removed words in <del> (underlined and
 * struck through as well as coloured, and named for screen readers, which read neither element).
 * The spaces around a changed run stay unmarked, so a struck-through space never looks like a dash.
 */
export function WordDiff({ words }: { words: WordOp[] }) {
  return (
    <>
      {words.map((w, i) => {
        if (w.op !== 'insert' && w.op !== 'delete') return <span key={i}>{w.text}</span>;
        const [before, core, after] = split(w.text);
        if (!core) return <span key={i}>{w.text}</span>;
        const added = w.op === 'insert';
        const Mark = added ? 'ins' : 'del';
        // A replaced word: the added run right after the removed one, with no space between.
        const prev = words[i - 1];
        const replaces = added && !before && prev?.op === 'delete' && !/\s$/.test(prev.text);
        return (
          <span key={i}>
            {before}
            <Mark className={added ? `word-diff__ins${replaces ? ' word-diff__ins--replacing' : ''}` : 'word-diff__del'}>
              <span className="visually-hidden">{added ? '[added: ' : '[removed: '}</span>
              {core}
              <span className="visually-hidden">]</span>
            </Mark>
            {after}
          </span>
        );
      })}
    </>
  );
}
