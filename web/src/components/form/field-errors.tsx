/**
 * A field's error list, referenced by the input's aria-describedby. The alert is the list's
 * container: a list given the alert role would no longer be a list to its items (axe).
 */
export function FieldErrors({ id, errors }: { id: string; errors: readonly string[] | undefined }) {
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} className="field-errors" role="alert">
      <ul>
        {errors.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  );
}

/** General errors above a form. */
export function FormErrorList({ errors }: { errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <div className="form-errors" role="alert">
      <ul>
        {errors.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  );
}
