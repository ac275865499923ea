import type { AdminSettingsResponse } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@scriptorium/common/i18n/languages';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { Form } from '../../components/form/form';
import { LabelledInput } from '../../components/form/labelled-input';
import { Select } from '../../components/form/select';
import { SubmitActions } from '../../components/form/submit-actions';
import { showToast } from '../../components/toast/toast';
import { FormErrorList, useAdminSubmit } from './admin-form';
import { useAdminQuery } from './use-admin-query';

type Provider = AdminSettingsResponse['providers'][number];

/** /admin/settings/: what the site keeps in its database rather than in the environment. */
export function SettingsSection() {
  const { t } = useTranslation('admin');
  const load = useCallback(() => call(adminApi.settings), []);
  const { data, setData } = useAdminQuery(load, t('settings.loadError'));
  const [email, setEmail] = useState('');
  const [language, setLanguage] = useState<Language>('en');
  const [providers, setProviders] = useState<Provider[]>([]);
  const { busy, fields, general, submit } = useAdminSubmit();

  useEffect(() => {
    if (!data) return;
    setEmail(data.settings.support_email);
    setLanguage(data.settings.default_language);
    setProviders(data.providers);
  }, [data]);

  const move = (index: number, by: -1 | 1) => {
    const next = [...providers];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved);
    setProviders(next);
  };

  const save = () =>
    submit(async () => {
      const saved = await call(adminApi.saveSettings, {
        support_email: email,
        default_language: language,
        provider_order: providers.map((provider) => provider.id),
      });
      setData(saved);
      showToast(t('settings.saved'), 'success');
    });

  if (!data) return <p className="page-loading">{t('loading')}</p>;
  return (
    <>
      <h2>{t('sections.settings')}</h2>
      <Form className="form admin-editor" onSubmit={save}>
        <FormErrorList errors={general} />
        <LabelledInput
          label={t('settings.supportEmail')}
          type="email"
          value={email}
          onChange={setEmail}
          errors={fields.support_email}
          hint={t('settings.supportEmailHint')}
        />
        <div className="form-field">
          <Select
            label={t('settings.defaultLanguage')}
            value={language}
            options={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
            onChange={setLanguage}
          />
          <p className="admin-hint">{t('settings.defaultLanguageHint')}</p>
        </div>
        <fieldset className="admin-choice">
          <legend>{t('settings.providerOrder')}</legend>
          {providers.length === 0 ? (
            <p className="admin-hint">{t('settings.noProviders')}</p>
          ) : (
            <ol className="admin-order">
              {providers.map((provider, index) => (
                <li key={provider.id}>
                  <span>{provider.name}</span>
                  <button
                    type="button"
                    className="icon-button"
                    disabled={index === 0}
                    aria-label={t('settings.moveUp', { name: provider.name })}
                    title={t('settings.moveUp', { name: provider.name })}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    disabled={index === providers.length - 1}
                    aria-label={t('settings.moveDown', { name: provider.name })}
                    title={t('settings.moveDown', { name: provider.name })}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ol>
          )}
        </fieldset>
        <SubmitActions label={t('save')} busy={busy} />
      </Form>
    </>
  );
}
