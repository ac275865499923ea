import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from './mailer';

describe('createMailer without SMTP_URL', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes each message to DATA_DIR/mail as an .eml file and logs recipient and subject', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-mail-'));
    dirs.push(dataDir);
    const logged: Array<{ details: object; message: string }> = [];
    const mailer = createMailer(
      { dataDir, smtpUrl: undefined, mailFrom: 'Scriptorium <noreply@example.org>' },
      { info: (details, message) => logged.push({ details, message }) },
    );
    const sent = await mailer.send({
      to: 'ada@example.org',
      subject: 'Grüße',
      text: 'Hallo Ada',
      html: '<p>Hallo Ada</p>',
    });
    await mailer.send({ to: 'ada@example.org', subject: 'Second', text: 'Two' });

    const files = readdirSync(path.join(dataDir, 'mail')).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^\d{13}-[0-9a-f]{8}\.eml$/);
    expect(sent.file).toBe(path.join(dataDir, 'mail', files[0]));
    const raw = readFileSync(sent.file ?? '', 'utf8');
    expect(raw).toContain('To: ada@example.org');
    expect(raw).toContain('From: Scriptorium <noreply@example.org>');
    // Non-ASCII subjects are MIME-encoded; the HTML part travels along.
    expect(raw).toMatch(/Subject: =\?UTF-8\?/);
    expect(raw).toContain('text/html');
    expect(logged[0]).toEqual({
      details: { to: 'ada@example.org', subject: 'Grüße', file: sent.file },
      message: 'mail written to outbox',
    });
  });
});
