import type { Plugin } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { EditorActionSpec } from './editor-action-spec';
import { FOOTNOTE_ACTIONS } from './footnote/actions';
import { footnoteEditorsOf, footnotesPlugin } from './footnote/view';

/**
 * The browser's half of each editor node feature (`common/src/features/registry.ts` lists the
 * other half): its actions, its plugins of the outer editor and the editors it nests. Adding a node
 * is one line here (its node views join in use-editor-view.ts); the generic editor code reads
 * these lists and names no feature.
 */
interface WebNodeFeature {
  actions: readonly EditorActionSpec[];
  plugins: () => Plugin[];
  /** The editors the feature nests in `outer` (a note's own), whose DOM selection is read too. */
  nestedEditors?: (outer: EditorView) => EditorView[];
}

const WEB_FEATURES: readonly WebNodeFeature[] = [
  { actions: FOOTNOTE_ACTIONS, plugins: () => [footnotesPlugin()], nestedEditors: footnoteEditorsOf },
];

export const FEATURE_ACTIONS: readonly EditorActionSpec[] = WEB_FEATURES.flatMap(
  (feature) => feature.actions,
);

/** The features' plugins of the outer editor, in the order of WEB_FEATURES. */
export function featurePlugins(): Plugin[] {
  return WEB_FEATURES.flatMap((feature) => feature.plugins());
}

/** Every editor the features nest in `outer`. */
export function nestedEditorsOf(outer: EditorView): EditorView[] {
  return WEB_FEATURES.flatMap((feature) => feature.nestedEditors?.(outer) ?? []);
}
