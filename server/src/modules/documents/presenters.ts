import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { displayName } from '../user/presenters';
import type { VisibleDocument } from './queries';

/** The overview row; owner names only, never their e-mail addresses. */
export function presentDocument(doc: VisibleDocument): DocumentEntry {
  return {
    id: doc.id,
    title: doc.title,
    path: doc.path,
    owner: {
      id: doc.owner_id,
      username: doc.owner_username,
      name: displayName({
        username: doc.owner_username,
        first_name: doc.owner_first_name,
        last_name: doc.owner_last_name,
      }),
    },
    is_owner: doc.rights === null,
    rights: doc.rights ?? 'write',
    created: doc.created_at,
    updated: doc.updated_at,
  };
}
