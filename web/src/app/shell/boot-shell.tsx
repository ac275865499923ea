import { LogoMark } from './logo';

/**
 * The first paint, before the scripts have run and while the configuration loads: the page's
 * colours and the header with the logo where the app's header will draw it, so that the first
 * contentful paint comes with the style sheets, not after the scripts. index.html holds the same
 * markup, written out (boot-shell.test.tsx keeps the two equal); the logo is no link here (the
 * shell is hidden from assistive technology and from the keyboard).
 */
export function BootShell() {
  return (
    <div className="boot-shell" aria-hidden="true">
      <div className="app-header">
        <span className="logo">
          <LogoMark />
        </span>
      </div>
    </div>
  );
}
