import type { AccessRight } from '../api/documents';

/**
 * Who may do what to a document: the one place that turns an access right into what its holder
 * may do. The server's step checks and policies and the editor's menus, toolbar, read-only state
 * and suggestion mode all read it from here; no other file compares a right with a literal.
 *
 *   right                  read  comments  comment  suggest  edit freely  decide suggestions
 *   read                    yes     yes       -         -         -               -
 *   read-without-comments   yes      -        -         -         -               -
 *   comment                 yes     yes      yes        -         -               -
 *   review                  yes     yes      yes   yes (only)     -               -
 *   write-tracked           yes     yes      yes   yes (only)     -               -
 *   write                   yes     yes      yes   yes (chosen)  yes             yes
 *
 * The owner holds `write` and, besides, manages the document (shares, moves, deletes it).
 */
export interface DocumentAbilities {
  /** Open the document and read its text (every right). */
  read: boolean;
  /** See the comment threads and the revision history. */
  seeComments: boolean;
  /** Start and answer comment threads, and anchor them in the text. */
  comment: boolean;
  /** Change the text at all, freely or as suggestions (the editor is not read-only). */
  edit: boolean;
  /** Make tracked suggestions. */
  suggest: boolean;
  /** Work in suggestion mode only: every change is a suggestion (write may choose the mode). */
  suggestOnly: boolean;
  /** Change the text without suggestion marks: the write right. */
  editFreely: boolean;
  /** Accept and reject other people's suggestions, switch suggestion mode, remove other people's comments. */
  decideSuggestions: boolean;
  /** Export, print and download the document (every right that reads it). */
  export: boolean;
  /** Share, move, rename and delete the document: its owner alone. */
  manage: boolean;
}

/** What the abilities of a right depend on besides the right itself. */
export interface AbilityContext {
  /** The user owns the document. */
  owner?: boolean;
}

const RIGHT_ABILITIES: Record<AccessRight, Omit<DocumentAbilities, 'manage'>> = {
  read: {
    read: true,
    seeComments: true,
    comment: false,
    edit: false,
    suggest: false,
    suggestOnly: false,
    editFreely: false,
    decideSuggestions: false,
    export: true,
  },
  'read-without-comments': {
    read: true,
    seeComments: false,
    comment: false,
    edit: false,
    suggest: false,
    suggestOnly: false,
    editFreely: false,
    decideSuggestions: false,
    export: true,
  },
  comment: {
    read: true,
    seeComments: true,
    comment: true,
    edit: false,
    suggest: false,
    suggestOnly: false,
    editFreely: false,
    decideSuggestions: false,
    export: true,
  },
  review: {
    read: true,
    seeComments: true,
    comment: true,
    edit: true,
    suggest: true,
    suggestOnly: true,
    editFreely: false,
    decideSuggestions: false,
    export: true,
  },
  'write-tracked': {
    read: true,
    seeComments: true,
    comment: true,
    edit: true,
    suggest: true,
    suggestOnly: true,
    editFreely: false,
    decideSuggestions: false,
    export: true,
  },
  write: {
    read: true,
    seeComments: true,
    comment: true,
    edit: true,
    suggest: true,
    suggestOnly: false,
    editFreely: true,
    decideSuggestions: true,
    export: true,
  },
};

/** What the holder of `right` may do to a document. */
export function abilities(right: AccessRight, context: AbilityContext = {}): DocumentAbilities {
  return { ...RIGHT_ABILITIES[right], manage: context.owner === true };
}

/**
 * The review rule's view of a right (ReviewStepChecker of editor/track-changes.ts): whether its
 * steps may anchor comments and make suggestions. `write` passes every step and needs no checker.
 */
export function reviewPermissions(right: AccessRight): { comments: boolean; suggestions: boolean } {
  const can = abilities(right);
  return { comments: can.comment, suggestions: can.suggest };
}
