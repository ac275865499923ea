import { useTranslation } from 'react-i18next';
import { LanguageSelector } from './language-selector';
import { ThemeSelector } from './theme-selector';

export const TERMS_PATH = '/pages/terms/';
export const PRIVACY_PATH = '/pages/privacy/';

/** The libraries the footer credits (spec 2.3); their names are proper names and stay untranslated. */
const LIBRARIES = [
  { label: 'footer.mathLibrary', name: 'MathLive', url: 'https://mathlive.io/' },
  { label: 'footer.citationLibrary', name: 'citeproc-js', url: 'https://github.com/Juris-M/citeproc-js' },
  { label: 'footer.editorLibrary', name: 'ProseMirror', url: 'https://prosemirror.net/' },
] as const;

interface FooterProps {
  showLanguage: boolean;
  contactEmail?: string | null;
}

/** Spec 2.3: terms, privacy, the credited libraries and the language selector. */
export function Footer({ showLanguage, contactEmail }: FooterProps) {
  const { t } = useTranslation('web');
  return (
    <footer className="app-footer">
      <ul className="footer-links">
        <li>
          <a href={TERMS_PATH}>{t('footer.terms')}</a>
        </li>
        <li>
          <a href={PRIVACY_PATH}>{t('footer.privacy')}</a>
        </li>
        {contactEmail && (
          <li>
            {t('footer.support')} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
          </li>
        )}
      </ul>
      <ul className="footer-libraries">
        {LIBRARIES.map((library) => (
          <li key={library.name}>
            {t(library.label)}{' '}
            <a href={library.url} target="_blank" rel="noopener noreferrer">
              {library.name}
            </a>
          </li>
        ))}
      </ul>
      <div className="app-footer-settings">
        {showLanguage && <LanguageSelector />}
        <ThemeSelector />
      </div>
    </footer>
  );
}
