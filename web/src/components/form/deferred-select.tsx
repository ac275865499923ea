import { ChevronDown } from 'lucide-react';
import { type KeyboardEvent, useId, useState } from 'react';
import type { SelectProps } from './select';
import { selectFieldClass } from './select-field';

type SelectModule = typeof import('./select');

let loaded: SelectModule | null = null;
let loading: Promise<SelectModule> | null = null;

/** Loads the real Select (react-aria's list box, popover and focus handling: about 38 KB gzip). */
export function loadSelect(): Promise<SelectModule> {
  loading ??= import('./select').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

/**
 * A Select whose code loads when the user reaches for it: until then a button drawn and named
 * exactly as the closed Select's, so that a page which only may be changed there (the login page's
 * language and theme, spec 2.3) does not load the list box before its form can be used. Hovering or
 * focusing the button starts the load; pressing it (click, Enter, Space, an arrow key) swaps in the
 * real Select, open and focused, as soon as it is there. It carries no form value (no `name`):
 * it is for choices that act at once, outside a form.
 */
export function DeferredSelect<Value extends string>(props: SelectProps<Value>) {
  // Pressed before the real Select was there: it comes open and focused.
  const [pressed, setPressed] = useState(false);
  const [module, setModule] = useState<SelectModule | null>(loaded);
  // Loaded before this mount (another screen used a Select): nothing to defer.
  const [readyAtMount] = useState(loaded !== null);
  const labelId = useId();
  const valueId = useId();

  if (module && (pressed || readyAtMount)) {
    const { Select } = module;
    return <Select {...props} openOnMount={pressed} autoFocus={pressed} />;
  }

  const load = () => void loadSelect().then(setModule);
  const press = () => {
    setPressed(true);
    load();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      press();
    }
  };
  const chosen =
    props.options.find((option) => option.value === props.value) ??
    props.groups?.flatMap((group) => group.options).find((option) => option.value === props.value);

  return (
    <div className={selectFieldClass(props)} data-disabled={props.disabled || undefined}>
      {props.hideLabel ? null : (
        <span className="select-label" id={labelId}>
          {props.label}
        </span>
      )}
      <button
        type="button"
        className="select-button"
        aria-haspopup="listbox"
        aria-expanded="false"
        aria-label={props.hideLabel ? props.label : undefined}
        aria-labelledby={props.hideLabel ? undefined : `${valueId} ${labelId}`}
        aria-describedby={props.describedBy}
        disabled={props.disabled}
        data-disabled={props.disabled || undefined}
        onPointerEnter={load}
        onFocus={load}
        onClick={press}
        onKeyDown={onKeyDown}
      >
        <span className="select-value" id={valueId} data-placeholder={chosen ? undefined : true}>
          {chosen?.label ?? props.placeholder}
        </span>
        <ChevronDown aria-hidden="true" className="select-chevron" />
      </button>
    </div>
  );
}
