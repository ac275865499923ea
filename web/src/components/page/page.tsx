import type { ReactNode } from 'react';
import { usePageTitle } from '../../app/page-title';

export interface PageProps {
  /** The visible heading; it also names the page's region. */
  heading: string;
  /** Classes beside "page" (e.g. "page-message" for a short centred message). */
  className?: string;
  role?: 'alert';
  /** The document title ("<title> - Scriptorium"), when this frame is the whole screen. */
  title?: string;
  children?: ReactNode;
}

/**
 * A screen's frame: a region named by its one h1 (id "page-heading", the tests' anchor), and the
 * document title when `title` is given (a screen with several states sets its own).
 */
export function Page({ heading, className, role, title, children }: PageProps) {
  usePageTitle(title ?? null);
  return (
    <section className={className ? `page ${className}` : 'page'} role={role} aria-labelledby="page-heading">
      <h1 id="page-heading">{heading}</h1>
      {children}
    </section>
  );
}

/** A short centred message: a heading, its text and perhaps the one thing to do next. */
export function MessagePage({
  heading,
  text,
  className,
  role,
  title,
  next,
  children,
}: PageProps & { text: ReactNode; next?: { href: string; label: string } }) {
  return (
    <Page
      heading={heading}
      className={className ? `page-message ${className}` : 'page-message'}
      role={role}
      title={title}
    >
      <p>{text}</p>
      {next ? (
        <p>
          <a href={next.href}>{next.label}</a>
        </p>
      ) : null}
      {children}
    </Page>
  );
}
