import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file when no SMTP server is configured. */
  file?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

/** The subset of a pino/Fastify logger the mailer needs. */
export interface MailLogger {
  info(details: object, message: string): void;
}

const consoleLogger: MailLogger = {
  info: (details, message) => console.info(message, JSON.stringify(details)),
};

/**
 * SMTP when SMTP_URL is set; otherwise every message lands in DATA_DIR/mail/*.eml so that a fresh
 * install (and a developer) can read password-reset and confirmation mails without a mail server.
 */
export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'dataDir' | 'mailFrom'>,
  logger: MailLogger = consoleLogger,
): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: config.mailFrom, ...message });
        logger.info({ to: message.to, subject: message.subject }, 'mail sent');
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }

  const outbox = path.join(config.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      await mkdir(outbox, { recursive: true });
      // Timestamp first so that `ls` lists the outbox in sending order.
      const file = path.join(outbox, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer);
      logger.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
