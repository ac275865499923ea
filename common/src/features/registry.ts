import type { Node as PMNode } from 'prosemirror-model';
import type { InlineWriter, NodeFeature, NodeJson } from './feature';
import { footnote } from './footnote/feature';
import { footnoteNodes } from './footnote/schema';

/**
 * Every editor node feature, once: adding a node is its folder and one line in each list here
 * (its specs for the schema; its feature for the writers, the readers and the checks).
 */
export const FEATURE_NODES = { ...footnoteNodes };
export const FEATURE_NODE_NAMES: readonly string[] = Object.keys(FEATURE_NODES);

export const NODE_FEATURES: readonly NodeFeature[] = [footnote];

const BY_NODE = new Map<string, NodeFeature>(
  NODE_FEATURES.flatMap((feature) => Object.keys(feature.nodes).map((name) => [name, feature] as const)),
);

/** The feature that owns a node type, if one does. */
export function featureOf(node: PMNode): NodeFeature | undefined {
  return BY_NODE.get(node.type.name);
}

/** `node` as `writer`'s format writes it ('' for a node no feature writes). */
export function writeNode(writer: InlineWriter, node: PMNode): string {
  return featureOf(node)?.write?.(writer, node) ?? '';
}

/** The node an imported note becomes (the first feature that takes notes). */
export function importedNote(paragraphs: NodeJson[]): NodeJson | null {
  for (const feature of NODE_FEATURES) if (feature.importNote) return feature.importNote(paragraphs);
  return null;
}
