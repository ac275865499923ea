import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context';

/** Export templates (DOCX/ODT reference documents) live as files under DATA_DIR/template-files. */
export function templateFilesDir(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'template-files');
}

export function templateFilePath(ctx: AppContext, fileName: string): string {
  return path.join(templateFilesDir(ctx), fileName);
}

/** Writes the upload under a random name (never the user's) and answers that name. */
export async function storeTemplateFile(ctx: AppContext, kind: string, bytes: Uint8Array): Promise<string> {
  await mkdir(templateFilesDir(ctx), { recursive: true });
  const name = `${randomBytes(16).toString('hex')}.${kind}`;
  await writeFile(templateFilePath(ctx, name), bytes);
  return name;
}

/** Replaces a stored file's content: written beside it, then renamed over it (a reader sees one or the other). */
export async function replaceTemplateFile(
  ctx: AppContext,
  fileName: string,
  bytes: Uint8Array,
): Promise<void> {
  const target = templateFilePath(ctx, fileName);
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, target);
}

/** Removes files after their rows are gone (a leftover file is harmless; a missing one is not). */
export async function removeTemplateFiles(ctx: AppContext, names: readonly string[]): Promise<void> {
  for (const name of names) await rm(templateFilePath(ctx, name), { force: true });
}

/** The first bytes of a ZIP container, which DOCX and ODT both are. */
export function isZip(bytes: Buffer): boolean {
  return bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}
