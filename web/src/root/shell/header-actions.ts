import type { Action } from '../../actions/registry';
import { navigate } from '../../app/router/navigation';
import type { HeaderItem } from '../../plugins/plugin';

/** The header's navigation as actions (scope 'app'): Alt-d/b/m/t/o, the palette lists them too. */
export function headerActions(items: readonly HeaderItem[]): Action[] {
  return items.map((item) => ({
    id: `header.${item.id}`,
    scope: 'app',
    title: item.title,
    ns: item.ns,
    keys: item.keys,
    run: () => navigate(item.path),
  }));
}
