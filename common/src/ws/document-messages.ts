import { z } from 'zod';
import { accessRight, TITLE_MAX } from '../api/documents';
import { abilities, type DocumentAbilities } from '../rules/document-abilities';
import { type AppSchemas, accessDeniedMessage } from './messages';
import {
  REVIEW_CLIENT_SCHEMAS,
  REVIEW_SERVER_SCHEMAS,
  reviewClientMessage,
  reviewServerMessage,
} from './review-messages';

/**
 * The application messages of ${ws_url_base}/document/<id>/ (issue 16), the prosemirror-collab
 * model with the server as the authority. The transport (counters, resend, heartbeat, subscribe)
 * is the one of every endpoint; these are the messages it carries.
 *
 *   server -> client  doc_data      once the socket is subscribed on a new server session (also
 *                                   after a server restart): the document, the right, the id to
 *                                   use as prosemirror-collab's clientID, who is there
 *   client -> server  catch_up      {v}: on a new server session, by a client that kept its
 *                                   state: send me the steps after version v (as one `diff`,
 *                                   with their client ids); its own committed steps come first
 *                                   in them, so collab confirms them and rebases the rest
 *   client -> server  diff          {v, rid, ds, rebase}: steps made on version v
 *   server -> sender  confirm_diff  {rid, v, base}: committed to the database; v is the new
 *                                   version. A diff with `rebase` made on an older version is
 *                                   not refused: its steps are mapped over the steps committed
 *                                   since (as collab's own rebase maps them) and committed at
 *                                   `base`; the steps the sender misses come first (as `diff`
 *                                   messages), so it has rebased its own steps over them and
 *                                   takes the v - base first ones as confirmed
 *   server -> others  diff          {v, ds, cids}: the same steps, relayed after the commit
 *   server -> sender  reject_diff   {rid, reason}: nothing of it was applied. For 'stale' (a
 *                                   diff without `rebase`, or older than the steps the server
 *                                   keeps in memory) the steps the sender misses come first, the
 *                                   client rebases (receiveTransaction) and sends again
 *   both ways         caret         a participant's selection at version v (ephemeral)
 *   server -> client  participants  who is in the document now
 *   server -> client  access_denied the transport's stamped frame: the right is gone (or the
 *                                   login ended); the socket closes right after it
 */

/** Steps in one diff; a keystroke is one step, a paste or a replace-all a few hundred at most. */
export const MAX_STEPS_PER_DIFF = 1000;

const version = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * One ProseMirror step as Step.toJSON() writes it. Only its envelope is checked here; the server
 * reads it with Step.fromJSON against the document schema and refuses what does not fit.
 */
export const stepJson = z.looseObject({ stepType: z.string().min(1).max(64) });
export type StepJson = z.infer<typeof stepJson>;

/** The client's own number for a diff, echoed in confirm_diff and reject_diff. */
export const requestId = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * Names one editor across its sockets (the transport session): the server records it with every
 * step and relays it in `cids`, so that a client recognises its own steps (use it as
 * prosemirror-collab's clientID).
 */
export const documentSessionId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** A ProseMirror document as Node.toJSON() writes it (checked against the schema by the server). */
export const docContent = z.looseObject({ type: z.string().min(1).max(64) });
export type DocContent = z.infer<typeof docContent>;

/** The rights a socket can hold; the owner holds 'write'. */
export const documentAccessRight = accessRight;

export const participant = z.object({
  session_id: documentSessionId,
  /** The user's id; one user may be there with several editors (tabs). */
  id: z.number().int().positive(),
  name: z.string(),
  username: z.string(),
  /** The avatar's address, or null for the initials. */
  avatar: z.string().nullable(),
});
export type Participant = z.infer<typeof participant>;

/**
 * The title doc_data carries (the overview's title). The server commits no diff that would make the
 * document's title longer than this (reject_diff 'title_too_long'), so that the doc_data it sends
 * later is one this schema takes.
 */
export const docDataTitle = z.string().max(TITLE_MAX);

/** What the user may do to the document: abilities(right, {owner}) of rules/document-abilities.ts. */
export const documentAbilities = z.object({
  read: z.boolean(),
  seeComments: z.boolean(),
  comment: z.boolean(),
  edit: z.boolean(),
  suggest: z.boolean(),
  suggestOnly: z.boolean(),
  editFreely: z.boolean(),
  decideSuggestions: z.boolean(),
  export: z.boolean(),
  manage: z.boolean(),
  // Every ability of the model and no other (a compile error otherwise).
} satisfies Record<keyof DocumentAbilities, z.ZodBoolean>);

// Server -> client.
/** doc_data as the server must send it (strict: the server checks commits against it). */
export const docDataMessage = z.object({
  type: z.literal('doc_data'),
  doc: z.object({
    id: z.number().int().positive(),
    v: version,
    title: docDataTitle,
    content: docContent,
  }),
  access_right: documentAccessRight,
  /** Whether this user owns the document (owners also manage its rights). */
  is_owner: z.boolean(),
  /**
   * What the right and ownership let this user do, computed by the server from the capability
   * model: the editor reads its toolbar, menus, read-only state and suggestion mode from here.
   */
  abilities: documentAbilities,
  session_id: documentSessionId,
  participants: z.array(participant),
});

/**
 * doc_data as a client reads it: lenient where it can be, so that a client never refuses to open a
 * document the server sends (a title over the limit, written before the server checked it, is
 * shown and flagged by the editor rather than failing the load).
 */
export const docDataReceived = docDataMessage.extend({
  doc: docDataMessage.shape.doc.extend({ title: z.string() }),
  /** Missing from a server older than the page (a tab open across a deploy): see receivedAbilities(). */
  abilities: documentAbilities.optional(),
});

/**
 * What the user of a doc_data may do: the abilities the server sent, or (from a server that sent
 * none yet) the capability model's answer for the right and ownership it did send.
 */
export function receivedAbilities(message: DocDataMessage): DocumentAbilities {
  return message.abilities ?? abilities(message.access_right, { owner: message.is_owner });
}

/** Steps others made, committed: `v` is the version they apply to, `cids` their editors' ids. */
export const serverDiffMessage = z.object({
  type: z.literal('diff'),
  v: version,
  ds: z.array(stepJson).min(1),
  cids: z.array(documentSessionId).min(1),
});

export const confirmDiffMessage = z.object({
  type: z.literal('confirm_diff'),
  rid: requestId,
  /** The document's version after the diff's steps. */
  v: version,
  /**
   * The version the steps were committed on, when the server rebased the diff (it was made on an
   * older one): the sender holds that version once it has taken the steps sent before this
   * answer, and its first v - base unconfirmed steps are the committed ones.
   */
  base: version.optional(),
});

/**
 * Why a diff was refused; nothing of it was applied.
 *   stale      its v is behind: the missing steps came just before, rebase and send again
 *   ahead      its v is beyond the document's version (the client must reload the document)
 *   malformed  a step is not a step of this schema (unknown type, node or mark, bad JSON shape,
 *              a NUL character in a text or attribute)
 *   range      a step's positions fall outside the document or do not fit it
 *   schema     the result would break the document's schema
 *   rights     the sender's right does not allow these steps (see collab rules on the server)
 *   too_large  more steps than MAX_STEPS_PER_DIFF, or the document would grow past its limit
 *   flood      too many diffs too fast: wait, then send again
 *   read_only  the sender's right allows no changes at all
 *   title_too_long  the title would grow longer than doc_data's title may be (TITLE_MAX)
 *   unsafe_link  a step adds a link to a target other than http(s), mailto or `#id` (safe-links.ts)
 */
export const REJECT_REASONS = [
  'stale',
  'ahead',
  'malformed',
  'range',
  'schema',
  'rights',
  'too_large',
  'flood',
  'read_only',
  'title_too_long',
  'unsafe_link',
] as const;
export const rejectReason = z.enum(REJECT_REASONS);
export type RejectReason = z.infer<typeof rejectReason>;

export const rejectDiffMessage = z.object({
  type: z.literal('reject_diff'),
  rid: requestId,
  reason: rejectReason,
});

export const participantsMessage = z.object({
  type: z.literal('participants'),
  participants: z.array(participant),
});

const caretFields = {
  /** The version the positions refer to; map them through the steps received since. */
  v: version,
  anchor: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  head: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
};

export const serverCaretMessage = z.object({
  type: z.literal('caret'),
  session_id: documentSessionId,
  /** The user whose caret it is (colour and name come from the participants list). */
  id: z.number().int().positive(),
  ...caretFields,
});

// Client -> server.
export const clientDiffMessage = z.object({
  type: z.literal('diff'),
  /** The version the steps were made on (prosemirror-collab's getVersion). */
  v: version,
  rid: requestId,
  ds: z.array(stepJson).min(1).max(MAX_STEPS_PER_DIFF),
  /**
   * The sender takes a rebased confirmation (confirm_diff with `base`): a late diff is then
   * committed instead of refused as stale. Without it (a page loaded before the server could
   * rebase) the server answers 'stale' as before.
   */
  rebase: z.literal(true).optional(),
});

export const clientCaretMessage = z.object({ type: z.literal('caret'), ...caretFields });

/**
 * Asks for the committed steps after version v (answered with one `diff` from v, or nothing when
 * v is the current version). Sent after doc_data by a client that kept its editor state, instead
 * of taking doc_data's content: nothing confirmed is lost or applied twice, and undo survives.
 */
export const catchUpMessage = z.object({ type: z.literal('catch_up'), v: version });

export const documentServerMessage = z.discriminatedUnion('type', [
  docDataReceived,
  serverDiffMessage,
  confirmDiffMessage,
  rejectDiffMessage,
  participantsMessage,
  serverCaretMessage,
  // Comments and revisions (review-messages.ts).
  ...reviewServerMessage.options,
]);
export const documentClientMessage = z.discriminatedUnion('type', [
  clientDiffMessage,
  clientCaretMessage,
  catchUpMessage,
  ...reviewClientMessage.options,
]);

/** doc_data as a client reads it (docDataReceived). */
export type DocDataMessage = z.infer<typeof docDataReceived>;
export type ServerDiffMessage = z.infer<typeof serverDiffMessage>;
export type ConfirmDiffMessage = z.infer<typeof confirmDiffMessage>;
export type RejectDiffMessage = z.infer<typeof rejectDiffMessage>;
export type ParticipantsMessage = z.infer<typeof participantsMessage>;
export type ServerCaretMessage = z.infer<typeof serverCaretMessage>;
export type ClientDiffMessage = z.infer<typeof clientDiffMessage>;
export type ClientCaretMessage = z.infer<typeof clientCaretMessage>;
export type CatchUpMessage = z.infer<typeof catchUpMessage>;
export type DocumentServerMessage = z.infer<typeof documentServerMessage>;
export type DocumentClientMessage = z.infer<typeof documentClientMessage>;

/** The transport's access_denied, named here because the document endpoint sends it on a lost right. */
export const documentAccessDenied = accessDeniedMessage;

/**
 * For parseFrame() / WebSocketConnector's serverMessages on the document endpoint: each message
 * read once, as one of DocumentServerMessage (the client's DocumentConnector, collab/).
 */
export const DOCUMENT_SERVER_APP_SCHEMAS: AppSchemas<DocumentServerMessage> = {
  doc_data: docDataReceived,
  diff: serverDiffMessage,
  confirm_diff: confirmDiffMessage,
  reject_diff: rejectDiffMessage,
  participants: participantsMessage,
  caret: serverCaretMessage,
  ...REVIEW_SERVER_SCHEMAS,
};

/** What the server reads on the document endpoint. */
export const DOCUMENT_CLIENT_APP_SCHEMAS = {
  diff: clientDiffMessage,
  caret: clientCaretMessage,
  catch_up: catchUpMessage,
  ...REVIEW_CLIENT_SCHEMAS,
} as const;

/** The endpoint's path under ws_url_base, for socketUrl(). */
export function documentSocketPath(documentId: number): string {
  return `/document/${documentId}/`;
}
