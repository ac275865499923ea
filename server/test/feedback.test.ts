import { feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { describe, expect, it } from 'vitest';
import { ENGINES, useServer } from './harness';
import { useSmtpSink } from './smtp-sink';

describe.each(ENGINES)('feedback without a contact address (%s)', (engine) => {
  const server = useServer(engine);

  it('stores a visitor report without a user', async () => {
    const response = await server().client().call(feedbackApi.send, { message: 'The login page is blank.' });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const rows = await server().ctx.db.selectFrom('feedback').selectAll().execute();
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        user_id: null,
        message: 'The login page is blank.',
        created_at: expect.any(Number),
        // Staff mark a report done in /admin/feedback/ (issue 22).
        done_at: null,
        done_by: null,
      },
    ]);
  });

  it('stores a user report with the user', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    expect((await browser.call(feedbackApi.send, { message: '  Citations vanish  ' })).status).toBe(200);
    const row = await server()
      .ctx.db.selectFrom('feedback')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.message).toBe('Citations vanish');
  });

  it('refuses an empty message', async () => {
    const before = await server().ctx.db.selectFrom('feedback').select('id').execute();
    const response = await server().client().call(feedbackApi.send, { message: '   ' });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      form: { errors: [], fields: { message: { errors: ['This field is required.'] } } },
    });
    const after = await server().ctx.db.selectFrom('feedback').select('id').execute();
    expect(after).toHaveLength(before.length);
  });
});

describe.each(ENGINES)('feedback mailed over SMTP (%s)', (engine) => {
  const sink = useSmtpSink();
  // A function: the sink's port is known only once its beforeAll (registered first) has run.
  const server = useServer(engine, {
    env: () => ({
      CONTACT_EMAIL: 'support@scriptorium.example',
      MAIL_FROM: 'Scriptorium <noreply@scriptorium.example>',
      SMTP_URL: sink().url,
    }),
  });

  it('delivers the report to CONTACT_EMAIL with the user as Reply-To', async () => {
    const user = await server().buildUser({ username: 'emmy', email: 'emmy@math.example' });
    const browser = await server().loginAs(user);
    const response = await browser.call(feedbackApi.send, {
      message: 'Equation numbers restart on page 2.',
    });
    expect(response.status).toBe(200);
    const [mail] = await sink().waitFor(1);
    expect(mail.to).toEqual(['support@scriptorium.example']);
    expect(mail.from).toBe('noreply@scriptorium.example');
    expect(mail.header('subject')).toBe('Feedback from emmy');
    expect(mail.header('reply-to')).toBe('emmy@math.example');
    expect(mail.raw).toContain('emmy <emmy@math.example> sent this message through the feedback form:');
    expect(mail.raw).toContain('Equation numbers restart on page 2.');
  });
});
