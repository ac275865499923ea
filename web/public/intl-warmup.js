// The first use of the browser's Intl in a page loads its locale data: 20-80 ms measured here in
// Chromium. react-aria probes Intl.DateTimeFormat while the app's first script is evaluated, which
// made that evaluation one long task. Paid here instead, after the first paint, while the app's
// scripts download (issue 23), in steps of a task each: the language tag's data (3-8 ms), the
// list of the locales Intl knows (the one piece that cannot be split, 14-33 ms), and the
// number and date formats the overview draws (2-6 ms each), so that no step is one long task.
// A classic script: the page's CSP allows no inline script, and index.html loads this one async,
// so that it blocks neither parsing nor paint.
(() => {
  const language = navigator.language || 'en-US';
  const steps = [
    () => new Intl.Locale(language),
    () => Intl.DateTimeFormat.supportedLocalesOf([language]),
    () => new Intl.NumberFormat(language).format(1.5),
    () => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(0),
  ];
  const next = (index) =>
    setTimeout(() => {
      try {
        steps[index]();
      } catch {
        // An invalid language tag: the data is loaded all the same.
      }
      if (index + 1 < steps.length) next(index + 1);
    });
  requestAnimationFrame(() => next(0));
})();
