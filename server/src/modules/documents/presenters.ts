import type { DocumentEntry, DocumentUser } from '@scriptorium/common/api/documents';
import { displayName } from '../user/presenters';
import type { DocumentOwner, ListedDocument, VisibleDocument } from './queries';

function presentOwner(owner: DocumentOwner): DocumentUser {
  return { id: owner.id, username: owner.username, name: displayName(owner) };
}

function presentEntry(doc: ListedDocument, owner: DocumentUser): DocumentEntry {
  return {
    id: doc.id,
    title: doc.title,
    path: doc.path,
    owner,
    is_owner: doc.rights === null,
    rights: doc.rights ?? 'write',
    created: doc.created_at,
    updated: doc.updated_at,
  };
}

/** The overview row; owner names only, never their e-mail addresses. */
export function presentDocument(doc: VisibleDocument): DocumentEntry {
  return presentEntry(
    doc,
    presentOwner({
      id: doc.owner_id,
      username: doc.owner_username,
      first_name: doc.owner_first_name,
      last_name: doc.owner_last_name,
    }),
  );
}

/** The overview's rows; each owner is presented once, however many of the documents are theirs. */
export function presentDocumentList(
  documents: ListedDocument[],
  owners: Map<number, DocumentOwner>,
): DocumentEntry[] {
  const presented = new Map<number, DocumentUser>();
  return documents.map((doc) => {
    let owner = presented.get(doc.owner_id);
    if (!owner) {
      owner = presentOwner(owners.get(doc.owner_id) as DocumentOwner);
      presented.set(doc.owner_id, owner);
    }
    return presentEntry(doc, owner);
  });
}
