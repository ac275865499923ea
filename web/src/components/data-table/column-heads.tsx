/**
 * The head of a plain table (not a DataTable): a column header for each label, then, with
 * `actions`, the header of the row actions' column, whose name is read but not shown.
 */
export function ColumnHeads({ labels, actions }: { labels: readonly string[]; actions?: string }) {
  return (
    <thead>
      <tr>
        {labels.map((label) => (
          <th key={label} scope="col">
            {label}
          </th>
        ))}
        {actions === undefined ? null : (
          <th scope="col">
            <span className="visually-hidden">{actions}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
