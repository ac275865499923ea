import { TableMap } from 'prosemirror-tables';
import type { Transform } from 'prosemirror-transform';

/**
 * Removing a table row so that the table keeps its shape, as prosemirror-tables' deleteRow does: a
 * cell spanning into the row from above spans one row less, a cell spanning down from it moves to
 * the next row, one row shorter. Used where a suggested row deletion is accepted (or a suggested
 * row insertion rejected), also for the exports that show the accepted text (acceptedDocument); a
 * suggestion itself leaves the spans as they are (track-changes.ts), so that the table keeps its
 * shape while it waits.
 *
 * Unlike prosemirror-tables' removeRow, the moved cell keeps its marks (a suggestion on it).
 * Returns false, changing nothing, for a table's only row: the table cannot be left without rows.
 */
export function removeTableRow(tr: Transform, pos: number): boolean {
  const $row = tr.doc.resolve(pos);
  const table = $row.parent;
  const row = $row.index();
  const rowNode = table.maybeChild(row);
  if (table.type.spec.tableRole !== 'table' || !rowNode || table.childCount < 2) return false;
  const tableStart = $row.start();
  const map = TableMap.get(table);
  const mapFrom = tr.mapping.maps.length;
  const mapped = (offset: number) => tr.mapping.slice(mapFrom).map(tableStart + offset);
  tr.delete(pos, pos + rowNode.nodeSize);
  const seen = new Set<number>();
  for (let column = 0; column < map.width; column++) {
    const index = row * map.width + column;
    const offset = map.map[index];
    if (seen.has(offset)) continue;
    seen.add(offset);
    const cell = table.nodeAt(offset);
    if (!cell) continue;
    const attrs = { ...cell.attrs, rowspan: Number(cell.attrs.rowspan) - 1 };
    if (row > 0 && offset === map.map[index - map.width]) tr.setNodeMarkup(mapped(offset), null, attrs);
    else if (row + 1 < map.height && offset === map.map[index + map.width])
      tr.insert(
        mapped(map.positionAt(row + 1, column, table)),
        cell.type.create(attrs, cell.content, cell.marks),
      );
  }
  return true;
}
