import { type ChangeEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isTheme, setTheme, storedTheme, THEMES, type Theme } from '../../styles/theme';

/** Light, dark, or as the system says; the choice is kept in this browser (styles/theme.ts). */
export function ThemeSelector() {
  const { t } = useTranslation('web');
  const id = useId();
  const [theme, setCurrent] = useState<Theme>(storedTheme);

  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = event.target.value;
    if (!isTheme(next)) return;
    setTheme(next);
    setCurrent(next);
  };

  return (
    <div className="theme-selector">
      <label htmlFor={id}>{t('theme.label')}</label>
      <select id={id} value={theme} onChange={onChange}>
        {THEMES.map((option) => (
          <option key={option} value={option}>
            {t(`theme.${option}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
