import {
  insertDisplayEquation,
  insertEquation,
  selectedNode,
} from '@scriptorium/common/editor/academic-commands';
import { renderLatex } from '@scriptorium/common/editor/academic-math';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyAndClose, type DialogProps, InsertDialog } from './shared';

/** The LaTeX rendered live under the field; errors in red with Temml's message. */
function MathPreview({ latex, display }: { latex: string; display: boolean }) {
  const { t } = useTranslation('editor');
  const ref = useRef<HTMLDivElement>(null);
  const result = renderLatex(latex, display);
  useEffect(() => {
    if (ref.current && result.ok) ref.current.innerHTML = result.mathml;
  }, [result]);
  if (!latex.trim()) return <p className="editor-help">{t('academic.math.empty')}</p>;
  if (!result.ok)
    return (
      <p className="doc-math-error" role="alert">
        {t('academic.math.error', { error: result.error })}
      </p>
    );
  return <div ref={ref} className="academic-math-preview" data-testid="math-preview" />;
}

interface MathFieldElement extends HTMLElement {
  value: string;
}

/**
 * Mod-e: MathLive's visual math field (with its virtual keyboard) beside the LaTeX source; either
 * edits the other. MathLive is loaded only when the dialog opens (it is large); the source field
 * works without it.
 */
export function MathDialog({ view, onClose, display }: DialogProps & { display: boolean }) {
  const { t } = useTranslation('editor');
  const selectedFigure = selectedNode(view.state, 'figure');
  const figure = selectedFigure?.node.attrs.category === 'equation' ? selectedFigure : null;
  const inline = selectedNode(view.state, 'equation');
  const initial = String(inline?.node.attrs.equation ?? figure?.node.attrs.equation ?? '');
  const isDisplay = figure ? true : inline ? false : display;
  const [latex, setLatex] = useState(initial);
  const [ready, setReady] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const field = useRef<MathFieldElement | null>(null);
  const sourceId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the field is made once; later changes flow through its value
  useEffect(() => {
    let live = true;
    import('mathlive')
      .then((mathlive) => {
        if (!live || !host.current) return;
        // No web fonts or sounds fetched from elsewhere: the bundle serves neither.
        mathlive.MathfieldElement.fontsDirectory = null;
        mathlive.MathfieldElement.soundsDirectory = null;
        const element = document.createElement('math-field') as MathFieldElement;
        element.setAttribute('aria-label', t('academic.math.visual'));
        element.className = 'academic-math-field';
        element.value = latex;
        element.addEventListener('input', () => setLatex(element.value));
        host.current.replaceChildren(element);
        field.current = element;
        setReady(true);
      })
      .catch(() => setReady(false));
    return () => {
      live = false;
    };
  }, []);

  const fromSource = (value: string) => {
    setLatex(value);
    if (field.current && field.current.value !== value) field.current.value = value;
  };
  const submit = () => {
    const value = latex.trim();
    if (!value) return;
    applyAndClose(view, onClose, figure || isDisplay ? insertDisplayEquation(value) : insertEquation(value));
  };
  return (
    <InsertDialog
      title={isDisplay ? t('academic.math.displayTitle') : t('academic.math.title')}
      onClose={onClose}
      width={560}
      updating={Boolean(initial)}
      onSubmit={submit}
      disabled={!latex.trim()}
      formClassName="academic-math"
    >
      <div ref={host} className="academic-math-host" data-ready={ready} />
      <label htmlFor={sourceId}>{t('academic.math.source')}</label>
      <textarea
        id={sourceId}
        className="academic-math-source"
        value={latex}
        rows={3}
        spellCheck={false}
        onChange={(event) => fromSource(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <MathPreview latex={latex} display={isDisplay} />
    </InsertDialog>
  );
}
