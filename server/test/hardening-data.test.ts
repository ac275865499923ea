import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { imagesResponse, saveImageResponse } from '@scriptorium/common/api/usermedia';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { runManage } from '../src/cli/run-manage';
import { getAccess } from '../src/modules/documents/commands/get-access';
import { ENGINES, type TestClient, type TestServer, useServer } from './harness';
import { insertSharedDocument } from './seed';

async function uploadPng(client: TestClient, colour: string) {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const image = new File([new Uint8Array(bytes)], 'a.png', { type: 'image/png' });
  const response = await client.call(usermediaApi.save, { image });
  expect(response.status).toBe(201);
  const saved = saveImageResponse.parse(response.json()).values;
  if (!saved) throw new Error('no image');
  return saved;
}

function mediaPath(server: TestServer, url: string): string {
  return path.join(server.ctx.config.dataDir, url.replace(/^\//, ''));
}

/** A file as an upload that crashed long ago would have left it. */
function oldFile(file: string, content = 'x'): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  const longAgo = new Date(Date.now() - 3 * 3600 * 1000);
  utimesSync(file, longAgo, longAgo);
  return file;
}

describe.each(ENGINES)('hardening: stored data (%s)', (engine) => {
  const server = useServer(engine);

  it('serialises parallel saves of the image categories of one owner', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const saves = Array.from({ length: 10 }, () =>
      browser.call(usermediaApi.saveCategories, { ids: ['0', '0'], titles: ['Maps', 'Plots'] }),
    );
    for (const response of await Promise.all(saves)) expect(response.status, response.text).toBe(200);
    const list = imagesResponse.parse((await browser.call(usermediaApi.images)).json());
    expect(list.imageCategories.map((category) => category.category_title).sort()).toEqual(['Maps', 'Plots']);
  });

  it("removes a deleted account's images and thumbnails, but not a file another user also has", async () => {
    const leaving = await server().buildUser();
    const staying = await server().buildUser();
    const leavingBrowser = await server().loginAs(leaving);
    const stayingBrowser = await server().loginAs(staying);
    const own = await uploadPng(leavingBrowser, '#aa0000');
    const shared = await uploadPng(leavingBrowser, '#00aa00');
    const kept = await uploadPng(stayingBrowser, '#00aa00');
    expect(kept.image).toBe(shared.image);
    const deleted = await leavingBrowser.call(userApi.deleteAccount, { password: leaving.password });
    expect(deleted.status, deleted.text).toBe(200);
    expect(existsSync(mediaPath(server(), own.image))).toBe(false);
    expect(existsSync(mediaPath(server(), own.thumbnail))).toBe(false);
    expect(existsSync(mediaPath(server(), shared.image))).toBe(true);
    expect(existsSync(mediaPath(server(), shared.thumbnail))).toBe(true);
  });

  it('sweeps unreferenced and temporary files with the manage command, keeping recent and used ones', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const used = await uploadPng(browser, '#0000aa');
    const media = path.join(server().ctx.config.dataDir, 'media');
    const orphan = oldFile(path.join(media, 'images', `${'a'.repeat(64)}.png`));
    const orphanThumbnail = oldFile(path.join(media, 'thumbnails', `${'a'.repeat(64)}.webp`));
    const partial = oldFile(path.join(media, 'images', `${'b'.repeat(64)}.png.0123456789ab.tmp`));
    const orphanAvatar = oldFile(path.join(media, 'avatars', `999999-${'c'.repeat(32)}.png`));
    const recent = path.join(media, 'images', `${'d'.repeat(64)}.png`);
    writeFileSync(recent, 'being uploaded by another process');
    utimesSync(mediaPath(server(), used.image), new Date(0), new Date(0));

    const out: string[] = [];
    const code = await runManage(['sweep-files'], {
      env: { ...server().env, LANG: 'en_US.UTF-8' },
      out: (line) => out.push(line),
      err: (line) => out.push(line),
    });
    expect(code).toBe(0);
    expect(out).toEqual([
      'Removed 1 image files, 1 thumbnails, 1 avatars and 1 temporary files that nothing refers to.',
    ]);
    for (const gone of [orphan, orphanThumbnail, partial, orphanAvatar])
      expect(existsSync(gone), gone).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(mediaPath(server(), used.image))).toBe(true);
    expect(existsSync(mediaPath(server(), used.thumbnail))).toBe(true);
    expect(readdirSync(path.join(media, 'images'))).toContain(path.basename(used.image));
  });

  it("get-access filters by owner in its own queries: another owner's document lists nobody", async () => {
    const owner = await server().buildUser();
    const collaborator = await server().buildUser();
    const stranger = await server().buildUser();
    const { db } = server().ctx;
    const documentId = await insertSharedDocument(db, owner.id, { userId: collaborator.id });
    expect(
      (await getAccess(server().ctx, owner, { id: documentId })).map((entry) => entry.holder_id),
    ).toEqual([collaborator.id]);
    expect(await getAccess(server().ctx, stranger, { id: documentId })).toEqual([]);
  });
});
