/**
 * The tips feature's parts that pages load on demand: each is its own chunk, kept out of a
 * reader's first load (a feature's second public entry, beside its index, for dynamic imports).
 */
export const loadTipSection = () => import('./components/tip-section');
