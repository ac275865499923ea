/** Spec section 9: dialog layers start at 100; each newly opened dialog goes one layer higher. */
export const FIRST_DIALOG_LAYER = 100;

const openLayers: number[] = [];

export function nextDialogLayer(): number {
  return openLayers.length === 0 ? FIRST_DIALOG_LAYER : Math.max(...openLayers) + 1;
}

/** Marks a layer as taken until the returned release function runs. */
export function takeDialogLayer(layer: number): () => void {
  openLayers.push(layer);
  return () => {
    const index = openLayers.indexOf(layer);
    if (index >= 0) openLayers.splice(index, 1);
  };
}

/** True while any Dialog is open: page-level shortcuts stay quiet then. */
export function isDialogOpen(): boolean {
  return openLayers.length > 0;
}
