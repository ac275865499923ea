// The first use of the browser's Intl in a page loads its locale data: 15-40 ms measured here in
// Chromium. react-aria probes Intl.DateTimeFormat while the app's first script is evaluated, which
// made that evaluation one long task. Paid here instead, in a task of its own after the first
// paint, while the app's scripts download (issue 23). A classic script: the page's CSP allows no
// inline script, and index.html loads this one async, so that it blocks neither parsing nor paint.
requestAnimationFrame(() =>
  setTimeout(() => {
    try {
      Intl.DateTimeFormat.supportedLocalesOf([navigator.language || 'en-US']);
    } catch {
      // An invalid language tag: the data is loaded all the same.
    }
  }),
);
