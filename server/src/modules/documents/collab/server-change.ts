import { TITLE_MAX } from '@scriptorium/common/api/documents';
import { documentTitle } from '@scriptorium/common/editor/templates';
import { type Reviewer, trackTransaction } from '@scriptorium/common/editor/track-changes';
import type { StepJson } from '@scriptorium/common/ws/document-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import type { Step } from 'prosemirror-transform';
import type { AppContext } from '../../../context';
import { HttpError } from '../../../http/errors';
import { publishToTopic, sendToUsers } from '../../../ws/hub';
import { documentViewerIds } from '../queries';
import { applySteps, parseSteps, Refusal } from './apply-steps';
import { DOCUMENT_ENDPOINT } from './document-endpoint';
import { rightSuggestsOnly, stepChecker } from './rights';
import { appendSteps, currentDocument, readVersionAndRight, withDocumentLock } from './store';

/** The client id of steps the server commits for a script (the public API). */
export const API_CLIENT_ID = 'server-api';

/**
 * Commits a change a user's script asks for (the public API) as one diff through the same checks
 * as an editor's: under the document's lock, on its latest version, with the user's right of this
 * moment, the schema, the template's parts and the limits. A user who may only suggest (write
 * tracked, review) changes the text as their suggestions, as their editor would in suggestion
 * mode. Then every process's open editors get the steps on the document's topic, exactly as if a
 * co-author had typed them. Answers the new version; 404 without a right, 403 without a right to
 * change the text, 400 when the checks refuse (or the change cannot be a suggestion).
 */
export async function commitServerChange(
  ctx: AppContext,
  documentId: number,
  userId: number,
  change: (doc: PMNode) => Step[],
): Promise<{ version: number }> {
  const outcome = await withDocumentLock(ctx.db, ctx.dialect, documentId, async (trx) => {
    const head = await readVersionAndRight(trx, documentId, userId);
    if (head?.right == null) throw new HttpError(404);
    const suggests = rightSuggestsOnly(head.right);
    if (head.right !== 'write' && !suggests)
      throw new HttpError(403, { error: 'rights', message: { key: 'errors.contentNeedsWrite' } });
    const current = await currentDocument(trx, documentId);
    if (!current) throw new HttpError(404);
    let steps = change(current.doc);
    if (suggests && steps.length > 0) {
      const user = await trx
        .selectFrom('users')
        .select('username')
        .where('id', '=', userId)
        .executeTakeFirst();
      steps = asSuggestions(current.doc, steps, { id: userId, username: user?.username ?? '' });
    }
    const ds = steps.map((step) => step.toJSON() as StepJson);
    if (ds.length === 0) return { base: current.version, ds, titleBefore: '', title: '' };
    let doc: PMNode;
    try {
      doc = applySteps(current.doc, parseSteps(ds), stepChecker(head.right, userId));
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      throw new HttpError(400, {
        error: error.reason,
        message: { key: 'errors.changeRefused', values: { reason: error.reason } },
      });
    }
    await appendSteps(trx, {
      documentId,
      baseVersion: current.version,
      steps: ds,
      clientId: API_CLIENT_ID,
      userId,
      doc,
      snapshot: true,
      now: Date.now(),
    });
    return { base: current.version, ds, titleBefore: documentTitle(current.doc), title: documentTitle(doc) };
  });
  if (outcome.ds.length) {
    // The document's topic on every process (this one too): open rooms take the steps as a
    // co-author's, or read them from the step log when they are behind.
    await publishToTopic(ctx, DOCUMENT_ENDPOINT, documentId, {
      kind: 'steps',
      v: outcome.base,
      ds: outcome.ds,
      cids: outcome.ds.map(() => API_CLIENT_ID),
    });
    const title = outcome.title.slice(0, TITLE_MAX);
    if (title !== outcome.titleBefore.slice(0, TITLE_MAX))
      await sendToUsers(ctx, await documentViewerIds(ctx.db, documentId), {
        type: 'document_title',
        id: documentId,
        title,
      });
  }
  return { version: outcome.base + outcome.ds.length };
}

/** The steps as the user's suggestions (trackTransaction, as the editor in suggestion mode); 400 when they cannot be. */
function asSuggestions(doc: PMNode, steps: Step[], user: Reviewer): Step[] {
  const state = EditorState.create({ doc });
  const tr = state.tr;
  for (const step of steps) tr.step(step);
  const tracked = trackTransaction(tr, state, user);
  if (!tracked)
    throw new HttpError(400, {
      error: 'not_a_suggestion',
      message: { key: 'errors.changeRefused', values: { reason: 'not_a_suggestion' } },
    });
  return tracked.steps;
}
