// The admin tabs' lists are small root lists (pricingTiers, adminSmartSegmentCategories, …), not
// connections: a mutation's payload record is put into them (or taken out) by an updater, so no list is
// read again after a change. A list is stored once per argument set ("variant"): a record goes into
// each variant it belongs to that the store holds; `{}` is the unfiltered list (null arguments are the
// same key as none).
import type { RecordProxy, RecordSourceSelectorProxy } from 'relay-runtime';

type Variant = Record<string, unknown>;

/** Appends `record` to the stored variants of the root list `field` (once; a variant not stored is left alone). */
export function addToRootList(store: RecordSourceSelectorProxy, field: string, record: RecordProxy | null | undefined, variants: Variant[] = [{}]) {
  if (!record) return;
  const root = store.getRoot();
  for (const args of variants) {
    const list = root.getLinkedRecords(field, args);
    if (!list || list.some((r) => r?.getDataID() === record.getDataID())) continue;
    root.setLinkedRecords([...list, record], field, args);
  }
}

/** Takes the records `drop` selects out of every stored variant of the root list `field`. */
export function removeFromRootList(store: RecordSourceSelectorProxy, field: string, drop: (r: RecordProxy) => boolean, variants: Variant[] = [{}]) {
  const root = store.getRoot();
  for (const args of variants) {
    const list = root.getLinkedRecords(field, args);
    if (list) root.setLinkedRecords(list.filter((r) => r && !drop(r)), field, args);
  }
}

/** The variants of a list filtered by category: unfiltered, and one per category the store knows. */
export function categoryVariants(store: RecordSourceSelectorProxy): Variant[] {
  const categories = store.getRoot().getLinkedRecords('adminSmartSegmentCategories') ?? [];
  return [{}, ...categories.filter((c) => c !== null).map((c) => ({ categoryId: c.getDataID() }))];
}

/** The category of a preset or formula record. */
export const categoryOf = (r: RecordProxy) => r.getLinkedRecord('category')?.getDataID();
