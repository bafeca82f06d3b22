export * from './payments-slice';
export { BankDetailsPanel } from './components/bank-details-panel';
export { EarningsPanel } from './components/earnings-panel';
