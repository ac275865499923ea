import { APP_NAME } from '../../app/page-title';

/** Spec 2.1: the logo links to / because the root route is the document app. */
export const LOGO_TARGET = '/';

/** The mark and the name; also drawn by the boot shell before the scripts run (boot-shell.tsx). */
export function LogoMark() {
  return (
    <>
      <svg
        className="logo-mark"
        viewBox="0 0 24 24"
        width="28"
        height="28"
        aria-hidden="true"
        focusable="false"
      >
        <path d="M5 3h11l3 3v15H5z" fill="currentColor" opacity="0.18" />
        <path d="M5 3h11l3 3v15H5zM8 9h8M8 13h8M8 17h5" fill="none" stroke="currentColor" strokeWidth="1.6" />
      </svg>
      <span className="logo-text">{APP_NAME}</span>
    </>
  );
}

export function Logo() {
  return (
    <a href={LOGO_TARGET} className="logo">
      <LogoMark />
    </a>
  );
}
