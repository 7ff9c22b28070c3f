// Small display helpers of the CLI; the product's display rules (names, money, dates) are in client/format.ts.
import { formatCount } from '../client/format.js';

/** Ids are shown by their first 8 characters (spec §9); commands accept such a prefix. */
export const shortId = (id: string) => id.slice(0, 8);

/** "lifetimeValue" → "lifetime value". */
export const words = (camel: string) => camel.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

export const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

export const percent = (done: number, total: number) => (total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 100);
