import { folderName, folderOf, folderUrl } from '@scriptorium/common/rules/paths';
import type { Participant } from '@scriptorium/common/ws/document-messages';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../app/configuration/app-context';
import { userColour } from './document-connection';

/**
 * The editor's header: the way back to the document's folder, the menu bar (wide screens), and
 * who is in the document now. On a phone it is drawn inside the menus' drawer.
 */
export function EditorHeader({
  path,
  participants,
  menuBar,
}: {
  path: string;
  participants: readonly Participant[];
  menuBar: React.ReactNode;
}) {
  const { t } = useTranslation('editor');
  const user = useCurrentUser();
  return (
    <header className="editor-header">
      <a className="editor-back" href={folderUrl(folderOf(path))}>
        {t('editor.back', {
          ns: 'documents',
          folder: folderLabel(path, t('allDocuments', { ns: 'documents' })),
        })}
      </a>
      {menuBar}
      <ul className="editor-participants" aria-label={t('participants')}>
        {participants.map((person) => {
          const name = person.name || person.username;
          const label = person.id === user?.id ? t('you', { name }) : name;
          return (
            <li
              key={person.session_id}
              className="editor-avatar"
              title={label}
              aria-label={label}
              style={{ borderColor: userColour(person.id) }}
            >
              {person.avatar ? <img src={person.avatar} alt="" /> : initials(name)}
            </li>
          );
        })}
      </ul>
    </header>
  );
}

function folderLabel(path: string, top: string): string {
  const folder = folderOf(path);
  return folder === '/' ? top : folderName(folder);
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}
