import type { Plugin } from 'prosemirror-state';
import type { EditorView, NodeViewConstructor } from 'prosemirror-view';
import type { EditorActionSpec } from './editor-action-spec';
import { FOOTNOTE_ACTIONS } from './footnote/actions';
import { footnoteNodeViews } from './footnote/node-view';
import { footnoteEditorsOf, footnotesPlugin } from './footnote/view';

/**
 * The browser's half of each editor node feature (`common/src/features/registry.ts` lists the
 * other half): its actions, its node views, its plugins of the outer editor and the editors it
 * nests. Adding a node is one line here; the generic editor code reads these lists and names no
 * feature.
 */
interface WebNodeFeature {
  actions: readonly EditorActionSpec[];
  nodeViews: (context: FeatureViewContext) => Record<string, NodeViewConstructor>;
  plugins: () => Plugin[];
  /** The editors the feature nests in `outer` (a note's own), whose DOM selection is read too. */
  nestedEditors?: (outer: EditorView) => EditorView[];
}

/** What a feature's node views get from the editor around them. */
export interface FeatureViewContext {
  t: (key: string, options?: Record<string, unknown>) => string;
  editable: () => boolean;
  /** The node views inside a nested editor (math, citations, cross-references). */
  innerViews: () => Record<string, NodeViewConstructor>;
  /** A nested editor's plugins (editor-plugins.ts `nestedEditorPlugins`). */
  nestedPlugins: (language: () => string) => Plugin[];
}

const WEB_FEATURES: readonly WebNodeFeature[] = [
  {
    actions: FOOTNOTE_ACTIONS,
    nodeViews: footnoteNodeViews,
    plugins: () => [footnotesPlugin()],
    nestedEditors: footnoteEditorsOf,
  },
];

export const FEATURE_ACTIONS: readonly EditorActionSpec[] = WEB_FEATURES.flatMap(
  (feature) => feature.actions,
);

/** The features' node views of the outer editor. */
export function featureNodeViews(context: FeatureViewContext): Record<string, NodeViewConstructor> {
  return Object.assign({}, ...WEB_FEATURES.map((feature) => feature.nodeViews(context)));
}

/** The features' plugins of the outer editor, in the order of WEB_FEATURES. */
export function featurePlugins(): Plugin[] {
  return WEB_FEATURES.flatMap((feature) => feature.plugins());
}

/** Every editor the features nest in `outer`. */
export function nestedEditorsOf(outer: EditorView): EditorView[] {
  return WEB_FEATURES.flatMap((feature) => feature.nestedEditors?.(outer) ?? []);
}
