/** Path prefixes of the current address, so cookies set on sub-paths are found too. */
function cookiePaths(pathname: string): string[] {
  const paths = ['/'];
  const parts = pathname.split('/').filter(Boolean);
  for (let index = 1; index <= parts.length; index++) {
    const path = `/${parts.slice(0, index).join('/')}`;
    paths.push(path, `${path}/`);
  }
  return paths;
}

/** Expires every cookie a script can see (spec 4: a 403 on configuration load clears all cookies). */
export function clearCookies(): void {
  const names = document.cookie
    .split(';')
    .map((part) => part.split('=')[0].trim())
    .filter(Boolean);
  const host = window.location.hostname;
  const domains = ['', `; domain=${host}`, `; domain=.${host}`];
  for (const name of names) {
    for (const path of cookiePaths(window.location.pathname)) {
      for (const domain of domains) {
        // biome-ignore lint/suspicious/noDocumentCookie: expiring cookies needs the document.cookie setter.
        document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}${domain}`;
      }
    }
  }
}
