import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { useStarted } from './harness';

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  /** The raw message as the server received it (headers and body). */
  raw: string;
  /** A header of the top-level message, unfolded; undefined when absent. */
  header(name: string): string | undefined;
}

export interface SmtpSink {
  url: string;
  messages: ReceivedMail[];
  /** Resolves once `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** A real SMTP server on loopback that keeps what it receives: mail tests go through real SMTP. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    // No TLS on loopback; nodemailer would otherwise upgrade with the sink's test certificate.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          from: mailFrom ? mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          header: (name) => headerOf(raw, name),
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A sink for the enclosing describe block, started before and closed after it: `const sink =
 * useSmtpSink(); ... sink().waitFor(1)`. Register it before useServer so that its address is
 * known when the server reads SMTP_URL.
 */
export function useSmtpSink(): () => SmtpSink {
  return useStarted('the SMTP sink', startSmtpSink);
}

/** The text of a quoted-printable mail body, soft line breaks joined. */
export function mailText(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The key at the end of the first link to `pathPrefix` in the mail. */
export function linkIn(raw: string, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s"<]*${pathPrefix}([A-Za-z0-9_-]+)`).exec(mailText(raw));
  if (!match) throw new Error(`no ${pathPrefix} link in mail:\n${raw}`);
  return match[1];
}
