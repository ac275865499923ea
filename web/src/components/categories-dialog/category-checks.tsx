/**
 * The categories of an image or a bibliography entry, as checkboxes in a fieldset (the entry and
 * image dialogs); `checked` holds the ids of the ticked ones.
 */
export function CategoryChecks({
  legend,
  categories,
  checked,
  onChange,
  className,
  empty,
}: {
  legend: string;
  categories: readonly { id: number; category_title: string }[];
  checked: readonly number[];
  onChange(checked: number[]): void;
  /** Classes of the fieldset, of each label and of the empty message. */
  className: { fieldset: string; label: string; empty?: string };
  /** Shown when there are no categories yet. */
  empty?: string;
}) {
  return (
    <fieldset className={className.fieldset}>
      <legend>{legend}</legend>
      {categories.length === 0 && empty ? <p className={className.empty}>{empty}</p> : null}
      {categories.map((category) => (
        <label key={category.id} className={className.label}>
          <input
            type="checkbox"
            checked={checked.includes(category.id)}
            onChange={(event) =>
              onChange(
                event.target.checked ? [...checked, category.id] : checked.filter((id) => id !== category.id),
              )
            }
          />
          {category.category_title}
        </label>
      ))}
    </fieldset>
  );
}
