import { ChevronDown } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  Select as AriaSelect,
  Button,
  Header,
  Label,
  ListBox,
  ListBoxItem,
  ListBoxSection,
  Popover,
  SelectValue,
} from 'react-aria-components';
import '../menu/menu.css';
import { selectFieldClass as fieldClass } from './select-field';

export interface SelectOption<Value extends string> {
  value: Value;
  label: string;
  disabled?: boolean;
  /** The option's language when it differs from the page's (a language named in itself). */
  lang?: string;
}

/** Options shown under a heading after the ungrouped ones (a native select's optgroup). */
export interface SelectGroup<Value extends string> {
  title: string;
  options: readonly SelectOption<Value>[];
}

interface CommonProps<Value extends string> {
  /** The visible label (or, with hideLabel, the read one); its text is the accessible name. */
  label: string;
  options: readonly SelectOption<NoInfer<Value>>[];
  groups?: readonly SelectGroup<NoInfer<Value>>[];
  /** The label is read, not shown (a compact toolbar or table cell). */
  hideLabel?: boolean;
  /** The label stands beside the button rather than above it (a footer or pager). */
  inline?: boolean;
  disabled?: boolean;
  /** Shown while nothing is chosen (value null, or no value in a multiple choice). */
  placeholder?: string;
  /** Ids of texts that describe the field (an error, a hint), named by aria-describedby. */
  describedBy?: string;
  invalid?: boolean;
  required?: boolean;
  /** The form field's name (a hidden native select carries the value in a submitted form). */
  name?: string;
  className?: string;
}

export interface SelectProps<Value extends string> extends CommonProps<Value> {
  /** The chosen value; null shows the placeholder. */
  value: Value | null;
  onChange(value: NoInfer<Value>): void;
  /** Opens the list right after it mounts (a DeferredSelect pressed before this module loaded). */
  openOnMount?: boolean;
  /** Takes the focus as it mounts (the DeferredSelect it replaces had it). */
  autoFocus?: boolean;
}

export interface MultiSelectProps<Value extends string> extends CommonProps<Value> {
  value: readonly Value[];
  onChange(value: NoInfer<Value>[]): void;
}

function allOptions<Value extends string>({ options, groups = [] }: CommonProps<Value>) {
  return [...options, ...groups.flatMap((group) => group.options)];
}

function Item<Value extends string>({ option }: { option: SelectOption<Value> }) {
  return (
    <ListBoxItem id={option.value} className="menu-item" textValue={option.label.trim()} lang={option.lang}>
      {option.label}
    </ListBoxItem>
  );
}

function Parts<Value extends string>(props: CommonProps<Value>) {
  const { label, hideLabel, options, groups = [] } = props;
  return (
    <>
      {hideLabel ? null : <Label className="select-label">{label}</Label>}
      <Button className="select-button">
        <SelectValue className="select-value" />
        <ChevronDown aria-hidden="true" className="select-chevron" />
      </Button>
      <Popover className="menu-popover select-popover">
        <ListBox className="menu">
          {options.map((option) => (
            <Item key={option.value} option={option} />
          ))}
          {groups.map((group) => (
            <ListBoxSection key={group.title} className="select-section">
              <Header className="select-section-title">{group.title}</Header>
              {group.options.map((option) => (
                <Item key={option.value} option={option} />
              ))}
            </ListBoxSection>
          ))}
        </ListBox>
      </Popover>
    </>
  );
}

function shared<Value extends string>(props: CommonProps<Value>) {
  return {
    className: fieldClass(props),
    disabledKeys: allOptions(props)
      .filter((option) => option.disabled)
      .map((option) => option.value),
    isDisabled: props.disabled ?? false,
    isInvalid: props.invalid,
    isRequired: props.required,
    validationBehavior: 'aria' as const,
    name: props.name,
    placeholder: props.placeholder,
    'aria-label': props.hideLabel ? props.label : undefined,
    'aria-describedby': props.describedBy,
  };
}

/**
 * A labelled choice of one value (react-aria's Select): a button showing the choice that opens a
 * list box; type-ahead, arrow keys, Enter and Escape work as in a native select, and the list
 * looks the same in every browser, theme and language. The button's accessible name is the shown
 * choice followed by the label ("Light Theme").
 */
export function Select<Value extends string>(props: SelectProps<Value>) {
  const { value, onChange, openOnMount } = props;
  // Opened after mounting, not as it mounts: by then autoFocus has put the focus on this button,
  // so closing the list returns it here (the stand-in that had it is gone).
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (openOnMount) setOpen(true);
  }, [openOnMount]);
  return (
    <AriaSelect
      {...shared(props)}
      {...(openOnMount ? { isOpen: open, onOpenChange: setOpen } : {})}
      autoFocus={props.autoFocus}
      value={value}
      onChange={(key) => {
        if (key !== null) onChange(String(key) as Value);
      }}
    >
      <Parts {...props} />
    </AriaSelect>
  );
}

/** The same control choosing any number of values; the list stays open while choosing. */
export function MultiSelect<Value extends string>(props: MultiSelectProps<Value>) {
  const { value, onChange } = props;
  return (
    <AriaSelect
      {...shared(props)}
      selectionMode="multiple"
      value={value}
      onChange={(keys) => onChange(keys.map((key) => String(key) as Value))}
    >
      <Parts {...props} />
    </AriaSelect>
  );
}
