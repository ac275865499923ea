import type { Language } from '@scriptorium/common/i18n/languages';
import type { Db } from '../../../db/database';

export async function saveUserLanguage(db: Db, userId: number, language: Language): Promise<void> {
  await db.updateTable('users').set({ language }).where('id', '=', userId).execute();
}
