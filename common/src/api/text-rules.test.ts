import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formId, jsonId, text } from './fields';
import { formIdField, jsonIdField, textField } from './text-rules';

/** What a parse answers: the data, or the issues as the server's error mapping reads them. */
function outcome(schema: z.core.$ZodType, input: unknown) {
  const result = z.safeParse(schema, input);
  return result.success ? { data: result.data } : { issues: result.error.issues };
}

const TEXTS = [
  '',
  ' ',
  'a',
  '  ann ',
  'a\u0000b',
  ' \u0000 ',
  'x'.repeat(254),
  ` ${'x'.repeat(254)} `,
  'x'.repeat(255),
];
const IDS = [
  0,
  1,
  -1,
  1.5,
  2_147_483_647,
  2_147_483_648,
  Number.NaN,
  '12',
  ' 7 ',
  '0',
  'abc',
  '',
  null,
  true,
];

// The first screens' modules use the zod/mini twins, the others fields.ts's chains: both must
// accept, clean and refuse alike (issue 23).
describe('the zod/mini twins of fields.ts', () => {
  it('textField with trim, minLength and maxLength is text().trim().min().max()', () => {
    const classic = text().trim().min(1).max(254);
    const mini = textField(z.trim(), z.minLength(1), z.maxLength(254));
    for (const input of [...TEXTS, undefined, 3])
      expect(outcome(mini, input)).toEqual(outcome(classic, input));
  });

  it('textField with maxLength only is text().max()', () => {
    for (const input of [...TEXTS, undefined])
      expect(outcome(textField(z.maxLength(254)), input)).toEqual(outcome(text().max(254), input));
  });

  it('jsonIdField is jsonId and formIdField is formId', () => {
    const formIdChain = z.coerce.number().int().positive().max(2_147_483_647);
    for (const input of IDS) {
      expect(outcome(jsonIdField, input)).toEqual(outcome(jsonId, input));
      expect(outcome(formIdField, input)).toEqual(outcome(formIdChain, input));
      expect(outcome(formId, input)).toEqual(outcome(formIdChain, input));
    }
  });
});
