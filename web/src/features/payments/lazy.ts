/**
 * The payments feature's parts that other features load on demand: each is its own chunk, kept
 * out of the first load of the pages that offer it (a feature's second public entry, beside its
 * index, for dynamic imports only).
 */
export const loadBankDetailsPanel = () => import('./components/bank-details-panel');
