/**
 * CSS.escape as the CSSOM spec defines it: jsdom lacks it and react-aria's focus scopes call it;
 * every browser we support has it. Loaded by the web test setup (web/src/test-setup.ts).
 */
function cssEscape(value: string): string {
  let result = '';
  for (let index = 0; index < value.length; index++) {
    const char = value[index];
    const code = value.charCodeAt(index);
    if (code === 0) result += '\uFFFD';
    else if (
      (code >= 0x1 && code <= 0x1f) ||
      code === 0x7f ||
      (index === 0 && code >= 0x30 && code <= 0x39) ||
      (index === 1 && code >= 0x30 && code <= 0x39 && value.charCodeAt(0) === 0x2d)
    )
      result += `\\${code.toString(16)} `;
    else if (index === 0 && value.length === 1 && code === 0x2d) result += `\\${char}`;
    else if (code >= 0x80 || code === 0x2d || code === 0x5f || /[0-9A-Za-z]/.test(char)) result += char;
    else result += `\\${char}`;
  }
  return result;
}

if (typeof globalThis.CSS === 'undefined') {
  Object.defineProperty(globalThis, 'CSS', {
    value: { escape: cssEscape, supports: () => false },
    configurable: true,
    writable: true,
  });
} else if (typeof globalThis.CSS.escape !== 'function') {
  globalThis.CSS.escape = cssEscape;
}
