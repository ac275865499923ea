import { LogoMark } from './logo';

/**
 * The overview's heading the server painted into index.html's boot shell (a logged-in start at
 * '/', common/src/shell/first-screen.ts), read before React replaces that markup; else undefined.
 */
export const SERVER_PAINTED_HEADING =
  typeof document === 'undefined'
    ? undefined
    : (document.querySelector('.boot-shell h1')?.textContent ?? undefined);

/**
 * The first paint, before the scripts have run and while the configuration loads: the page's
 * colours and the header with the logo where the app's header will draw it, so that the first
 * contentful paint comes with the style sheets, not after the scripts. index.html holds the same
 * markup, written out (boot-shell.test.tsx keeps the two equal); the logo is no link here (the
 * shell is hidden from assistive technology and from the keyboard). With `heading`, the overview's
 * heading where the overview draws it, as the server painted it: it stays until the page is there.
 */
export function BootShell({ heading = SERVER_PAINTED_HEADING }: { heading?: string }) {
  return (
    <div className="boot-shell" aria-hidden="true">
      <div className="app-header">
        <span className="logo">
          <LogoMark />
        </span>
      </div>
      {heading !== undefined && (
        <main className="app-main">
          <section className="page documents-page">
            <h1 className="documents-heading">{heading}</h1>
          </section>
        </main>
      )}
    </div>
  );
}
