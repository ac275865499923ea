import type { Language } from '@scriptorium/common/i18n/languages';
import type { AppContext } from '../../../context';
import type { Actor } from '../../command';

export async function saveUserLanguage(
  ctx: AppContext,
  user: Actor,
  input: { language: Language },
): Promise<void> {
  await ctx.db.updateTable('users').set({ language: input.language }).where('id', '=', user.id).execute();
}
