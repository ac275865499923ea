import { Trash2 } from 'lucide-react';

/**
 * The delete icon of every table and list (lucide's bin). Decorative: the button that holds it
 * carries the name ('Delete ...').
 */
export function TrashIcon() {
  return <Trash2 aria-hidden="true" />;
}
