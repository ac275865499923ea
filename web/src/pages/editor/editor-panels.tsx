import {
  type Contributor,
  isValidOrcid,
  saveContributor,
  setHeadingNumbering,
  setLanguage,
  setPaperSize,
  setPartHidden,
} from '@scriptorium/common/editor/commands';
import { applyLink, insertLinkedText, linkRange } from '@scriptorium/common/editor/links';
import { outline } from '@scriptorium/common/editor/outline';
import { isSafeHref, PAPER_SIZES, type PaperSize } from '@scriptorium/common/editor/schema';
import { findMatches, replaceAll, replaceOne, type SearchQuery } from '@scriptorium/common/editor/search';
import { countDocument } from '@scriptorium/common/editor/text-stats';
import { HEADING_NUMBERINGS, type HeadingNumbering } from '@scriptorium/common/editor/vocabulary';
import { X } from 'lucide-react';
import { TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bindingLabel } from '../../actions/key-binding';
import { IconButton } from '../../components/button/icon-button';
import { ColumnHeads } from '../../components/data-table/column-heads';
import { Dialog } from '../../components/dialog/dialog';
import { Select } from '../../components/form/select';
import { EDITOR_ACTIONS } from './editor-actions';
import { searchKey } from './editor-plugins';

interface PanelProps {
  view: EditorView;
  onClose(): void;
}

/** An editor dialog whose changes apply at once: its fields, and Done to close it. */
export function DoneDialog({
  title,
  width,
  onClose,
  children,
}: {
  title: string;
  width: number;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation('editor');
  return (
    <Dialog
      title={title}
      onClose={onClose}
      width={width}
      buttons={
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('settings.done')}
        </button>
      }
    >
      <div className="editor-form">{children}</div>
    </Dialog>
  );
}

/** Languages offered for documents; named in the reader's language by the browser. */
export const DOCUMENT_LANGUAGES = [
  'en-US',
  'en-GB',
  'de-DE',
  'de-CH',
  'fr-FR',
  'es-ES',
  'it-IT',
  'pt-BR',
  'pt-PT',
  'bg-BG',
  'nl-NL',
  'pl-PL',
  'cs-CZ',
  'sv-SE',
  'da-DK',
  'nb-NO',
  'fi-FI',
  'ru-RU',
  'uk-UA',
  'el-GR',
  'tr-TR',
  'ja-JP',
  'zh-CN',
] as const;

export function SettingsDialog({ view, onClose }: PanelProps) {
  const { t, i18n } = useTranslation('editor');
  const names = useMemo(() => new Intl.DisplayNames([i18n.language], { type: 'language' }), [i18n.language]);
  const language = String(view.state.doc.attrs.language);
  const paper = String(view.state.doc.attrs.paper_size);
  const numbering = String(view.state.doc.attrs.heading_numbering) as HeadingNumbering;
  const languageHelpId = useId();
  const numberingHelpId = useId();
  const options = DOCUMENT_LANGUAGES.includes(language as (typeof DOCUMENT_LANGUAGES)[number])
    ? DOCUMENT_LANGUAGES
    : [language, ...DOCUMENT_LANGUAGES];
  const [, rerender] = useState(0);
  const run = (ok: boolean) => ok && rerender((n) => n + 1);
  return (
    <DoneDialog title={t('settings.title')} onClose={onClose} width={420}>
      <Select
        label={t('settings.language')}
        value={language}
        options={options.map((tag) => ({ value: tag, label: names.of(tag) ?? tag }))}
        describedBy={languageHelpId}
        onChange={(tag) => run(setLanguage(tag)(view.state, view.dispatch))}
      />
      <p id={languageHelpId} className="editor-help">
        {t('settings.languageHelp')}
      </p>
      <Select<PaperSize>
        label={t('settings.paperSize')}
        value={paper as PaperSize}
        options={PAPER_SIZES.map((size) => ({
          value: size,
          label: size === 'A4' ? t('settings.a4') : t('settings.letter'),
        }))}
        onChange={(size) => run(setPaperSize(size)(view.state, view.dispatch))}
      />
      <Select<HeadingNumbering>
        label={t('settings.headingNumbering')}
        value={numbering}
        options={HEADING_NUMBERINGS.map((value) => ({ value, label: t(`settings.numbering.${value}`) }))}
        describedBy={numberingHelpId}
        onChange={(value) => run(setHeadingNumbering(value)(view.state, view.dispatch))}
      />
      <p id={numberingHelpId} className="editor-help">
        {t('settings.headingNumberingHelp')}
      </p>
      {partToggles(view).map((part) => (
        <label key={part.id} className="editor-check">
          <input
            type="checkbox"
            checked={!part.hidden}
            onChange={(event) =>
              run(setPartHidden(part.id, !event.target.checked)(view.state, view.dispatch))
            }
          />
          {t(`part.${part.id}`, { defaultValue: part.title })}
        </label>
      ))}
    </DoneDialog>
  );
}

function partToggles(view: EditorView): { id: string; title: string; hidden: boolean }[] {
  const parts: { id: string; title: string; hidden: boolean }[] = [];
  view.state.doc.forEach((node) => {
    if (node.attrs.optional)
      parts.push({
        id: String(node.attrs.id),
        title: String(node.attrs.title),
        hidden: Boolean(node.attrs.hidden),
      });
  });
  return parts;
}

export function WordCountDialog({ view, onClose }: PanelProps) {
  const { t, i18n } = useTranslation('editor');
  const whole = countDocument(view.state.doc);
  const { from, to, empty } = view.state.selection;
  const selection = empty ? null : countDocument(view.state.doc, from, to);
  const number = new Intl.NumberFormat(i18n.language);
  const rows: [string, keyof typeof whole][] = [
    ['wordCount.words', 'words'],
    ['wordCount.characters', 'characters'],
    ['wordCount.charactersNoSpaces', 'charactersWithoutSpaces'],
  ];
  return (
    <Dialog title={t('wordCount.title')} onClose={onClose} width={420}>
      <table className="editor-count">
        <thead>
          <tr>
            <td />
            <th scope="col">{t('wordCount.document')}</th>
            {selection ? <th scope="col">{t('wordCount.selection')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, key]) => (
            <tr key={key}>
              <th scope="row">{t(label)}</th>
              <td data-count={key}>{number.format(whole[key])}</td>
              {selection ? <td>{number.format(selection[key])}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('editor');
  return (
    <Dialog title={t('shortcuts.title')} onClose={onClose} width={560}>
      <table className="editor-shortcuts">
        <ColumnHeads labels={[t('shortcuts.action'), t('shortcuts.keys')]} />
        <tbody>
          {EDITOR_ACTIONS.filter((action) => action.keys).map((action) => (
            <tr key={action.id}>
              <td>{t(action.title, action.titleOptions)}</td>
              <td>
                <kbd>{bindingLabel(action.keys ?? '')}</kbd>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>{t('shortcuts.inputRules')}</h3>
      <ul className="editor-rules">
        {['ruleHeading', 'ruleList', 'ruleQuote', 'ruleCode', 'ruleDash'].map((key) => (
          <li key={key}>{t(`shortcuts.${key}`)}</li>
        ))}
      </ul>
    </Dialog>
  );
}

export function FaqDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('editor');
  return (
    <Dialog title={t('faq.title')} onClose={onClose} width={600} height={900}>
      <dl className="editor-faq">
        {['writing', 'citing', 'sharing', 'exporting'].map((topic) => (
          <div key={topic}>
            <dt>{t(`faq.${topic}Q`)}</dt>
            <dd>{t(`faq.${topic}A`)}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}

/**
 * Insert > Link (Mod-k): with text selected (or the caret in a link) it asks for the address;
 * with nothing selected, for the text to show as well, and inserts the linked text (links.ts).
 */
export function LinkDialog({ view, onClose }: PanelProps) {
  const { t } = useTranslation('editor');
  // Read once: the dialog works on what was selected when it opened.
  const [range] = useState(() => linkRange(view.state));
  const existing = range?.mark ?? null;
  const [href, setHref] = useState(existing ? String(existing.attrs.href) : '');
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const headings = outline(view.state.doc).filter((entry) => entry.id && entry.text);
  const hrefId = useId();
  const textId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!range && !text.trim()) {
      setError(t('link.needsText'));
      return;
    }
    if (!isSafeHref(href)) {
      setError(t('link.invalid'));
      return;
    }
    if (range) applyLink(href)(view.state, view.dispatch);
    else insertLinkedText(text, href)(view.state, view.dispatch);
    // The dialog gives the text the focus back as it closes (EditorDialogs' ReturnFocusContext).
    onClose();
  };
  return (
    <Dialog
      title={t('link.title')}
      onClose={onClose}
      width={460}
      buttons={
        <>
          {existing ? (
            <button
              type="button"
              onClick={() => {
                applyLink('')(view.state, view.dispatch);
                onClose();
              }}
            >
              {t('link.remove')}
            </button>
          ) : null}
          <button type="submit" form="editor-link-form" className="button button-primary">
            {t('link.apply')}
          </button>
        </>
      }
    >
      <form id="editor-link-form" className="editor-form" onSubmit={submit} noValidate>
        {range ? null : (
          <>
            <label htmlFor={textId}>{t('link.text')}</label>
            <input
              id={textId}
              type="text"
              value={text}
              autoFocus
              onChange={(event) => {
                setText(event.target.value);
                setError('');
              }}
              aria-invalid={error && !text.trim() ? true : undefined}
            />
          </>
        )}
        <label htmlFor={hrefId}>{t('link.href')}</label>
        <input
          id={hrefId}
          type="url"
          inputMode="url"
          value={href}
          autoFocus={Boolean(range)}
          onChange={(event) => {
            setHref(event.target.value.trim());
            setError('');
          }}
          aria-invalid={error && (range || text.trim()) ? true : undefined}
        />
        {headings.length ? (
          <Select
            label={t('link.heading')}
            value={href.startsWith('#') ? href : ''}
            options={[
              { value: '', label: t('link.none') },
              ...headings.map((entry) => ({
                value: `#${entry.id}`,
                label: `${'\u2003'.repeat(entry.level - 1)}${entry.text}`,
              })),
            ]}
            onChange={setHref}
          />
        ) : null}
        <DialogError error={error} />
      </form>
    </Dialog>
  );
}

const EMPTY_CONTRIBUTOR: Contributor = { firstname: '', lastname: '', email: '', institution: '', orcid: '' };

export function ContributorDialog({ view, index, onClose }: PanelProps & { index: number | null }) {
  const { t } = useTranslation('editor');
  const initial = useMemo(() => {
    if (index === null) return EMPTY_CONTRIBUTOR;
    let found: Contributor = EMPTY_CONTRIBUTOR;
    view.state.doc.forEach((part) => {
      if (part.type.name === 'contributors_part' && index < part.childCount)
        found = part.child(index).attrs as Contributor;
    });
    return found;
  }, [view, index]);
  const [value, setValue] = useState<Contributor>(initial);
  const [error, setError] = useState('');
  const formId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cleaned = Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, String(v).trim()]),
    ) as unknown as Contributor;
    if (!cleaned.firstname && !cleaned.lastname) return setError(t('contributors.nameRequired'));
    if (cleaned.orcid && !isValidOrcid(cleaned.orcid)) return setError(t('contributors.orcidInvalid'));
    saveContributor(cleaned, index)(view.state, view.dispatch);
    onClose();
  };
  const fields: (keyof Contributor)[] = ['firstname', 'lastname', 'email', 'institution', 'orcid'];
  return (
    <Dialog
      title={index === null ? t('contributors.dialogAdd') : t('contributors.dialogEdit')}
      onClose={onClose}
      width={420}
      buttons={
        <>
          <button type="button" onClick={onClose}>
            {t('contributors.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary">
            {t('contributors.save')}
          </button>
        </>
      }
    >
      <form id={formId} className="editor-form" onSubmit={submit} noValidate>
        {fields.map((field, i) => (
          <label key={field} className="editor-field">
            <span>{t(`contributors.${field}`)}</span>
            <input
              type={field === 'email' ? 'email' : 'text'}
              value={value[field]}
              autoFocus={i === 0}
              onChange={(event) => setValue({ ...value, [field]: event.target.value })}
            />
          </label>
        ))}
        <DialogError error={error} />
      </form>
    </Dialog>
  );
}

/** The find and replace bar above the document (not modal: the text stays editable). */
export function SearchPanel({ view, onClose, revision }: PanelProps & { revision: number }) {
  const { t } = useTranslation('editor');
  const [query, setQuery] = useState<SearchQuery>({
    text: '',
    caseSensitive: false,
    wholeWord: false,
    regex: false,
  });
  const [replacement, setReplacement] = useState('');
  const [current, setCurrent] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: revision changes whenever the document does.
  const matches = useMemo(() => findMatches(view.state.doc, query), [view, query, revision]);
  const index = matches.length ? Math.min(current, matches.length - 1) : 0;
  const invalid = query.regex && query.text !== '' && !matches.length && !isValidRegex(query.text);

  useEffect(() => {
    view.dispatch(view.state.tr.setMeta(searchKey, { query: query.text ? query : null, current: index }));
  }, [view, query, index]);
  useEffect(
    () => () => {
      if (!view.isDestroyed) view.dispatch(view.state.tr.setMeta(searchKey, { query: null, current: 0 }));
    },
    [view],
  );

  const go = (step: number) => {
    if (!matches.length) return;
    const next = (index + step + matches.length) % matches.length;
    setCurrent(next);
    const match = matches[next];
    view.dispatch(
      view.state.tr.setSelection(TextSelection.create(view.state.doc, match.from, match.to)).scrollIntoView(),
    );
  };
  const toggle = (key: 'caseSensitive' | 'wholeWord' | 'regex') => setQuery({ ...query, [key]: !query[key] });
  const editable = view.editable;

  return (
    <section className="editor-search" aria-label={t('search.title')}>
      <input
        type="search"
        aria-label={t('search.find')}
        placeholder={t('search.find')}
        value={query.text}
        // biome-ignore lint/a11y/noAutofocus: the panel was opened to type into this box
        autoFocus
        onChange={(event) => {
          setQuery({ ...query, text: event.target.value });
          setCurrent(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            go(event.shiftKey ? -1 : 1);
          } else if (event.key === 'Escape') onClose();
        }}
      />
      <span className="editor-search-count" role="status">
        {invalid
          ? t('search.invalid')
          : query.text
            ? matches.length
              ? t('search.position', { current: index + 1, count: matches.length })
              : t('search.none')
            : ''}
      </span>
      <button type="button" onClick={() => go(-1)} disabled={!matches.length}>
        {t('search.previous')}
      </button>
      <button type="button" onClick={() => go(1)} disabled={!matches.length}>
        {t('search.next')}
      </button>
      {(['caseSensitive', 'wholeWord', 'regex'] as const).map((key) => (
        <label key={key} className="editor-check">
          <input type="checkbox" checked={query[key]} onChange={() => toggle(key)} />
          {t(`search.${key}`)}
        </label>
      ))}
      {editable ? (
        <>
          <input
            type="text"
            aria-label={t('search.replace')}
            placeholder={t('search.replace')}
            value={replacement}
            onChange={(event) => setReplacement(event.target.value)}
          />
          <button
            type="button"
            disabled={!matches.length}
            onClick={() => {
              const tr = replaceOne(view.state, query, matches[index], replacement);
              if (tr) view.dispatch(tr);
            }}
          >
            {t('search.replaceOne')}
          </button>
          <button
            type="button"
            disabled={!matches.length}
            onClick={() => {
              const tr = replaceAll(view.state, query, replacement);
              if (tr) view.dispatch(tr);
            }}
          >
            {t('search.replaceAll')}
          </button>
        </>
      ) : null}
      <IconButton className="editor-search-close" label={t('search.close')} icon={X} onPress={onClose} />
    </section>
  );
}

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

/** The outline navigator: headings as links that move the cursor there. */
export function OutlinePanel({ view, onClose, revision }: PanelProps & { revision: number }) {
  const { t } = useTranslation('editor');
  // biome-ignore lint/correctness/useExhaustiveDependencies: revision changes whenever the document does.
  const entries = useMemo(() => outline(view.state.doc), [view, revision]);
  return (
    <nav className="editor-outline" aria-label={t('outline.title')}>
      <header>
        <h2>{t('outline.title')}</h2>
        <IconButton label={t('search.close')} icon={X} onPress={onClose} />
      </header>
      {entries.length ? (
        <ol>
          {entries.map((entry) => (
            <li key={`${entry.pos}-${entry.id}`} style={{ paddingInlineStart: `${entry.level - 1}em` }}>
              <button
                type="button"
                onClick={() => {
                  const state = view.state;
                  const pos = Math.min(entry.pos + 1, state.doc.content.size);
                  view.dispatch(state.tr.setSelection(TextSelection.create(state.doc, pos)).scrollIntoView());
                  view.focus();
                }}
              >
                {entry.text || '…'}
              </button>
            </li>
          ))}
        </ol>
      ) : (
        <p>{t('outline.empty')}</p>
      )}
    </nav>
  );
}

/** A dialog's refusal (a bad address, a failed save), announced under its fields. */
function DialogError({ error }: { error: string }) {
  return error ? (
    <p role="alert" className="editor-error">
      {error}
    </p>
  ) : null;
}
