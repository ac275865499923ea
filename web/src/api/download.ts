/** Offers a blob as a file download. */
export function downloadBlob(data: Blob, fileName: string): void {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL is revoked.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name a server's Content-Disposition gives (RFC 5987 form first). */
export function attachmentFileName(header: string | null, fallback: string): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '');
  if (encoded) return decodeURIComponent(encoded[1]);
  return /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? fallback;
}
