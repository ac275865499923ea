import type { NodeFeature } from '../feature';
import { footnoteNodes } from './schema';

/**
 * The footnote: an inline node holding paragraphs (schema.ts here). Its command
 * (`commands.ts`) and the keys that leave its nested editor (`keys.ts`) are beside this file; its
 * view, list, node view and Insert action in `web/src/pages/editor/footnote/`. Every writer writes it as the
 * format's note; every reader's note becomes one (a note holding only a citation is the citation's,
 * import/build.ts).
 */
export const footnote: NodeFeature = {
  nodes: footnoteNodes,
  // The content expression cannot exclude a footnote inside a footnote: refused here.
  problem(node) {
    let nested = false;
    node.descendants((inner) => {
      if (inner.type === node.type) nested = true;
      return !nested;
    });
    return nested ? 'nested_footnote' : null;
  },
  write: (writer, node) => writer.note(node),
  importNote: (paragraphs) => ({ type: 'footnote', content: paragraphs }),
};
