import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { translator } from '../i18n/translate';
import { formErrorBody, formErrorFromValidation, ValidationError } from './errors';

function errorsFor(schema: z.ZodType, input: Record<string, unknown>, language: 'en' | 'fr' = 'en') {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a validation failure');
  return formErrorBody(
    formErrorFromValidation(new ValidationError(result.error.issues, input)),
    translator('server', language),
  );
}

describe('validation errors', () => {
  const schema = z.object({
    title: z.string().trim().min(1).max(5),
    code: z.string().min(3),
    ids: z.array(z.string()).min(1),
    email: z.email(),
    kind: z.enum(['a', 'b']),
  });

  it('maps each issue to a translated message under its field', () => {
    expect(errorsFor(schema, { title: 'too long', code: 'ab', ids: [], email: 'nope', kind: 'c' })).toEqual({
      form: {
        errors: [],
        fields: {
          title: { errors: ['Ensure this value has at most 5 characters.'] },
          code: { errors: ['Ensure this value has at least 3 characters.'] },
          ids: { errors: ['This field is required.'] },
          email: { errors: ['This is not a valid email.'] },
          kind: { errors: ['Select a valid choice.'] },
        },
      },
    });
  });

  it('calls a missing or blank field required, whatever the type', () => {
    const body = errorsFor(schema, { title: '   ', code: '', kind: 'a' }, 'fr');
    expect(body.form.fields).toEqual({
      title: { errors: ['Ce champ est obligatoire.'] },
      code: { errors: ['Ce champ est obligatoire.'] },
      ids: { errors: ['Ce champ est obligatoire.'] },
      email: { errors: ['Ce champ est obligatoire.'] },
    });
  });

  it('puts whole-form issues in the general list', () => {
    const refined = z.object({ a: z.string() }).refine(() => false);
    expect(errorsFor(refined, { a: 'x' }).form).toEqual({ errors: ['Enter a valid value.'], fields: {} });
  });
});
