import {
  ALargeSmall,
  Bold,
  Braces,
  Italic,
  type LucideIcon,
  Quote,
  Subscript,
  Superscript,
} from 'lucide-react';
import 'prosemirror-view/style/prosemirror.css';
import './rich-text-field.css';
import type { RichText } from '@scriptorium/common/bibliography/types';
import { baseKeymap } from 'prosemirror-commands';
import { history } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  activeMarks,
  ariaShortcut,
  isMac,
  richTextKeys,
  SHORTCUTS,
  shortcutLabel,
  TOOLBAR_MARKS,
  type ToolbarMark,
  toggleRichMark,
} from './rich-text-commands';
import {
  docToRichText,
  docToRichTextList,
  flattenSlice,
  joinLines,
  listSchema,
  richTextListToDoc,
  richTextToDoc,
  singleSchema,
} from './rich-text-doc';

interface CommonProps {
  /** The id of the editable element. */
  id?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  'aria-required'?: boolean;
  /** Taller, for abstracts and notes. */
  long?: boolean;
}

interface SingleProps extends CommonProps {
  list?: false;
  value: RichText;
  onChange(value: RichText): void;
}

interface ListProps extends CommonProps {
  /** One paragraph per item; Enter starts a new item. */
  list: true;
  value: RichText[];
  onChange(value: RichText[]): void;
}

export type RichTextFieldProps = SingleProps | ListProps;

type Value = RichText | RichText[];

/** The toolbar's icons; each button is named by its label (aria-label), the icon is decoration. */
const GLYPHS: Record<ToolbarMark, LucideIcon> = {
  em: Italic,
  strong: Bold,
  smallcaps: ALargeSmall,
  sup: Superscript,
  sub: Subscript,
  enquote: Quote,
  nocase: Braces,
};

function sameValue(a: Value, b: Value): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function marksKey(state: EditorState): string {
  return [...activeMarks(state)].join(' ');
}

/**
 * A rich-text field on ProseMirror: the marks of the bibliography model with a toolbar (shown while
 * the field has focus) and shortcuts, unresolved @string macros as chips that cannot be edited.
 * The view is made once; a new value prop replaces its document only when it is not the value
 * the view itself last reported.
 */
export function RichTextField(props: RichTextFieldProps) {
  const { t } = useTranslation('richtext');
  const list = props.list === true;
  const hostRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const toolbarRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const lastValue = useRef<Value>(props.value);
  const onChangeRef = useRef(props.onChange as (value: Value) => void);
  const tRef = useRef(t);
  const [active, setActive] = useState('');
  const [focused, setFocused] = useState(false);
  const [current, setCurrent] = useState(0);

  const attributes: Record<string, string> = {
    role: 'textbox',
    'aria-multiline': String(list),
    class: `rich-text-editable${props.long ? ' rich-text-long' : ''}${list ? ' rich-text-list' : ''}`,
  };
  if (props.id) attributes.id = props.id;
  if (props['aria-labelledby']) attributes['aria-labelledby'] = props['aria-labelledby'];
  if (props['aria-describedby']) attributes['aria-describedby'] = props['aria-describedby'];
  if (props['aria-invalid']) attributes['aria-invalid'] = 'true';
  if (props['aria-required']) attributes['aria-required'] = 'true';
  const attributesKey = JSON.stringify(attributes);
  const attributesRef = useRef(attributes);
  attributesRef.current = attributes;

  useLayoutEffect(() => {
    onChangeRef.current = props.onChange as (value: Value) => void;
    tRef.current = t;
  });

  useLayoutEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const schema = list ? listSchema : singleSchema;
    const initial = lastValue.current;
    const doc = list ? richTextListToDoc(initial as RichText[]) : richTextToDoc(initial as RichText);
    const view: EditorView = new EditorView(host, {
      state: EditorState.create({
        doc,
        plugins: [history(), keymap(richTextKeys(schema, list)), keymap(baseKeymap)],
      }),
      attributes: attributesRef.current,
      // A single value is one line: pasted or dropped lines are joined with spaces.
      transformPastedText: list ? undefined : (text) => joinLines(text),
      transformPasted: list ? undefined : (slice) => flattenSlice(slice, schema),
      nodeViews: {
        variable: (node: PMNode) => {
          const dom = document.createElement('span');
          dom.className = 'rt-variable';
          dom.setAttribute('contenteditable', 'false');
          dom.dataset.variable = String(node.attrs.variable);
          dom.textContent = String(node.attrs.variable);
          dom.title = tRef.current('variable', { name: node.attrs.variable });
          return { dom };
        },
      },
      dispatchTransaction(tr) {
        const state = view.state.apply(tr);
        view.updateState(state);
        if (tr.docChanged) {
          const value = list ? docToRichTextList(state.doc) : docToRichText(state.doc);
          lastValue.current = value;
          onChangeRef.current(value);
        }
        setActive(marksKey(state));
      },
    });
    viewRef.current = view;
    setActive(marksKey(view.state));
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, [list]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attributesKey stands for the attributes
  useEffect(() => {
    viewRef.current?.setProps({ attributes: attributesRef.current });
  }, [attributesKey]);

  const value = props.value;
  useEffect(() => {
    const view = viewRef.current;
    if (!view || sameValue(value, lastValue.current)) return;
    lastValue.current = value;
    const doc = list ? richTextListToDoc(value as RichText[]) : richTextToDoc(value as RichText);
    view.updateState(EditorState.create({ doc, plugins: view.state.plugins }));
    setActive(marksKey(view.state));
  }, [value, list]);

  // The toolbar shows while the focus is anywhere in the field (editor or toolbar).
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const onIn = () => setFocused(true);
    const onOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (!next || !root.contains(next)) setFocused(false);
    };
    root.addEventListener('focusin', onIn);
    root.addEventListener('focusout', onOut);
    return () => {
      root.removeEventListener('focusin', onIn);
      root.removeEventListener('focusout', onOut);
    };
  }, []);

  const run = (name: ToolbarMark) => {
    const view = viewRef.current;
    if (view) toggleRichMark(name)(view.state, view.dispatch);
  };

  // Arrow keys move along the toolbar, so that it is a single Tab stop.
  const onToolbarKey = (event: KeyboardEvent) => {
    const last = TOOLBAR_MARKS.length - 1;
    const moves: Record<string, number> = {
      ArrowRight: current === last ? 0 : current + 1,
      ArrowLeft: current === 0 ? last : current - 1,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setCurrent(next);
    toolbarRef.current?.querySelectorAll('button')[next]?.focus();
  };

  const on = new Set(active.split(' '));
  const keyNames = { mod: t('keys.mod'), shift: t('keys.shift') };
  return (
    <div ref={rootRef} className="rich-text-field">
      <div ref={hostRef} className="rich-text-host" />
      {focused ? (
        <div
          ref={toolbarRef}
          role="toolbar"
          aria-label={t('toolbar')}
          aria-controls={props.id}
          className="rich-text-toolbar"
          onKeyDown={onToolbarKey}
        >
          {TOOLBAR_MARKS.map((name, index) => {
            const label = t('withShortcut', {
              label: t(`mark.${name}`),
              shortcut: shortcutLabel(SHORTCUTS[name], keyNames, isMac),
            });
            const Glyph = GLYPHS[name];
            return (
              <button
                key={name}
                type="button"
                className={`rich-text-button rich-text-button-${name}`}
                tabIndex={index === current ? 0 : -1}
                aria-pressed={on.has(name)}
                aria-label={label}
                aria-keyshortcuts={ariaShortcut(SHORTCUTS[name], isMac)}
                title={label}
                // Keeps the focus (and so the selection) in the editor when clicked.
                onMouseDown={(event) => event.preventDefault()}
                onFocus={() => setCurrent(index)}
                onClick={() => run(name)}
              >
                <Glyph aria-hidden="true" />
              </button>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}
