import { jsonHasNul } from '@scriptorium/common/api/fields';
import { hasUnsafeLink } from '@scriptorium/common/editor/safe-links';
import { schema } from '@scriptorium/common/editor/schema';
import { checkDocument, documentTitle, keepsTemplateParts } from '@scriptorium/common/editor/templates';
import { docDataTitle, type RejectReason, type StepJson } from '@scriptorium/common/ws/document-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import type { StepChecker } from './rights';

/**
 * The checks every change of a document passes before it is committed, whoever makes it (an
 * editor's diff, the public API): steps parsed without NUL or unsafe links, then applied under the
 * author's right and the schema, the template's parts and the size limit.
 */

/** A document larger than this (ProseMirror nodeSize, about characters) takes no more steps. */
export const MAX_DOCUMENT_SIZE = 5_000_000;

export class Refusal extends Error {
  constructor(readonly reason: RejectReason) {
    super(reason);
  }
}

/**
 * How many template problems each document checked here has (a document is immutable): the next
 * diff on it, often the next of a group commit, does not walk the whole document again.
 */
const problemCounts = new WeakMap<PMNode, number>();

function problemCount(doc: PMNode): number {
  let count = problemCounts.get(doc);
  if (count === undefined) {
    count = checkDocument(doc).length;
    problemCounts.set(doc, count);
  }
  return count;
}

/** Applies steps to a document, checking each against the sender's right (`rule`) and the schema. */
export function applySteps(doc: PMNode, steps: Step[], rule: StepChecker): PMNode {
  const problemsBefore = problemCount(doc);
  let current = doc;
  for (const step of steps) {
    if (!rule.allows(step, current)) throw new Refusal('rights');
    let result: ReturnType<Step['apply']>;
    try {
      result = step.apply(current);
    } catch (error) {
      // Positions outside the document throw RangeError("Position ... out of range").
      throw new Refusal(
        error instanceof RangeError && /out of range/i.test(error.message) ? 'range' : 'schema',
      );
    }
    if (!result.doc)
      throw new Refusal(/out of range|position/i.test(result.failed ?? '') ? 'range' : 'schema');
    current = result.doc;
  }
  if (!rule.finish(current)) throw new Refusal('rights');
  try {
    current.check();
  } catch {
    throw new Refusal('schema');
  }
  if (problemCount(current) > problemsBefore) throw new Refusal('schema');
  // The title doc_data sends must be one its schema takes, or nobody could open the document again
  // (a title over the limit stored before this check may stay, and be shortened).
  const title = documentTitle(current);
  if (!docDataTitle.safeParse(title).success && title.length > documentTitle(doc).length)
    throw new Refusal('title_too_long');
  // The template's parts stay, in their order (a modified client could delete or move one).
  if (!keepsTemplateParts(doc, current)) throw new Refusal('schema');
  if (current.nodeSize > MAX_DOCUMENT_SIZE) throw new Refusal('too_large');
  return current;
}

export function parseSteps(json: StepJson[]): Step[] {
  // No text or attribute of a document holds NUL: PostgreSQL cannot store it in the title column
  // (the diff got no answer there), and no export format can carry it. Refused on both engines.
  if (jsonHasNul(json)) throw new Refusal('malformed');
  // A link to javascript:, data: and the like never enters a document (safe-links.ts).
  if (hasUnsafeLink(json)) throw new Refusal('unsafe_link');
  try {
    return json.map((item) => Step.fromJSON(schema, item));
  } catch {
    throw new Refusal('malformed');
  }
}
