import { downloadBlob } from '../../api/download';

/** Offers text as a file download without a server round trip. */
export function downloadText(text: string, fileName: string, type: string): void {
  downloadBlob(new Blob([text], { type }), fileName);
}
