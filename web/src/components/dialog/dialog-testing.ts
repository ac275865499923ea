/** The size the open dialog asks for (its --dialog-width and --dialog-height), e.g. ['820px', '440px'] (tests). */
export function openDialogSize(): [string | undefined, string | undefined] {
  const modal = document.querySelector<HTMLElement>('.dialog-modal');
  return [modal?.style.getPropertyValue('--dialog-width'), modal?.style.getPropertyValue('--dialog-height')];
}
