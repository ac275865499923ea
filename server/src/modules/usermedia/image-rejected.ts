/**
 * Why an uploaded image is refused. Its own module: the request handlers that answer a refusal
 * need the class but not sharp, which only the upload workers load (prepare-image.ts).
 */
export type RejectReason =
  | 'unsupportedType'
  | 'invalidImage'
  | 'unsafeSvg'
  | 'svgTooComplex'
  | 'processingLimit';

export class ImageRejected extends Error {
  constructor(readonly reason: RejectReason) {
    super(reason);
  }
}
