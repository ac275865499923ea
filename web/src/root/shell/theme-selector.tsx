import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeferredSelect } from '../../components/form/deferred-select';
import { isTheme, setTheme, storedTheme, THEMES, type Theme } from '../../styles/theme';

/** Light, dark, or as the system says; the choice is kept in this browser (styles/theme.ts). */
export function ThemeSelector() {
  const { t } = useTranslation('web');
  const [theme, setCurrent] = useState<Theme>(storedTheme);

  const onChange = (next: string) => {
    if (!isTheme(next)) return;
    setTheme(next);
    setCurrent(next);
  };

  return (
    <DeferredSelect
      className="theme-selector"
      inline
      label={t('theme.label')}
      value={theme}
      options={THEMES.map((option) => ({ value: option, label: t(`theme.${option}`) }))}
      onChange={onChange}
    />
  );
}
