import sharp from 'sharp';

/** Avatars are square images of this many pixels. */
export const AVATAR_SIZE = 200;

/**
 * The centre square of a PNG or JPEG as a PNG of AVATAR_SIZE px; null when the bytes are not a
 * readable PNG or JPEG. Runs in an upload worker (modules/uploads), never on the event loop.
 */
export async function prepareAvatar(bytes: Buffer): Promise<Buffer | null> {
  try {
    const image = sharp(bytes, { limitInputPixels: 50_000_000 });
    const { format } = await image.metadata();
    if (format !== 'png' && format !== 'jpeg') return null;
    return await image
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'attention' })
      .png()
      .toBuffer();
  } catch {
    return null;
  }
}
