import type { AdminPresence } from '@scriptorium/common/api/admin';
import type { AppContext } from '../../../context';
import { liveHub } from '../../../ws/hub';
import { displayName } from '../../user/presenters';

/**
 * Who is connected now, over every server process (the Redis census of each process, or this
 * process's own without Redis), and which documents they have open ('document/<id>' topics).
 */
export async function presence(ctx: AppContext): Promise<AdminPresence> {
  const census = (await liveHub(ctx)?.fanOut.census()) ?? [];
  const sockets = new Map<number, number>();
  const documents = new Map<number, Set<number>>();
  for (const entry of census) {
    for (const { userId, scope, sockets: count } of entry.presence ?? []) {
      sockets.set(userId, (sockets.get(userId) ?? 0) + count);
      const match = /^document\/(\d+)$/.exec(scope);
      if (match) {
        const open = documents.get(userId) ?? new Set<number>();
        open.add(Number(match[1]));
        documents.set(userId, open);
      }
    }
  }
  const userIds = [...sockets.keys()];
  const documentIds = [...new Set([...documents.values()].flatMap((set) => [...set]))];
  const [users, titles] = await Promise.all([
    userIds.length
      ? ctx.db
          .selectFrom('users')
          .select(['id', 'username', 'first_name', 'last_name'])
          .where('id', 'in', userIds)
          .execute()
      : [],
    documentIds.length
      ? ctx.db.selectFrom('documents').select(['id', 'title']).where('id', 'in', documentIds).execute()
      : [],
  ]);
  const titleOf = new Map(titles.map((row) => [row.id, row.title]));
  return {
    processes: census.length,
    sockets: census.reduce((sum, entry) => sum + entry.sockets, 0),
    users: users
      .map((user) => ({
        id: user.id,
        username: user.username,
        name: displayName(user),
        sockets: sockets.get(user.id) ?? 0,
        documents: [...(documents.get(user.id) ?? [])]
          .filter((id) => titleOf.has(id))
          .sort((a, b) => a - b)
          .map((id) => ({ id, title: titleOf.get(id) ?? '' })),
      }))
      .sort((a, b) => a.username.localeCompare(b.username)),
  };
}
