import { ChevronDown } from 'lucide-react';
import {
  Select as AriaSelect,
  Button,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  SelectValue,
} from 'react-aria-components';
import './select.css';

export interface SelectOption<Value extends string> {
  value: Value;
  label: string;
  disabled?: boolean;
}

export interface SelectProps<Value extends string> {
  label: string;
  value: Value;
  options: readonly SelectOption<NoInfer<Value>>[];
  onChange(value: NoInfer<Value>): void;
  /** The label is read, not shown (a compact toolbar or table cell). */
  hideLabel?: boolean;
  disabled?: boolean;
  /** The form field's name (a hidden native select carries the value in a submitted form). */
  name?: string;
  className?: string;
}

/**
 * A labelled choice of one value (react-aria's Select): a button showing the choice that opens a
 * list box; type-ahead, arrow keys, Enter and Escape work as in a native select, and the list
 * looks the same in every browser, theme and language.
 */
export function Select<Value extends string>({
  label,
  value,
  options,
  onChange,
  hideLabel = false,
  disabled = false,
  name,
  className,
}: SelectProps<Value>) {
  return (
    <AriaSelect
      className={`select-field${className ? ` ${className}` : ''}`}
      selectedKey={value}
      onSelectionChange={(key) => {
        if (key !== null) onChange(String(key) as Value);
      }}
      disabledKeys={options.filter((option) => option.disabled).map((option) => option.value)}
      isDisabled={disabled}
      name={name}
      aria-label={hideLabel ? label : undefined}
    >
      {hideLabel ? null : <Label>{label}</Label>}
      <Button className="select-button">
        <SelectValue className="select-value" />
        <ChevronDown aria-hidden="true" className="select-chevron" />
      </Button>
      <Popover className="menu-popover select-popover">
        <ListBox className="menu">
          {options.map((option) => (
            <ListBoxItem key={option.value} id={option.value} className="menu-item" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
