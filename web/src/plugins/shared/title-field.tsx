import { LabelledInput } from '../../components/form/labelled-input';

/** A title in the plugins' editors (a book's, a template's, an export file's): up to 255 characters. */
export function TitleField(props: { label: string; value: string; onChange(value: string): void }) {
  return <LabelledInput className="plugin-field" maxLength={255} {...props} />;
}
