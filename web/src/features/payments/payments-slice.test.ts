import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import type { BankDetails } from '@/types/money';
import {
  BANK_DETAILS_CACHE_MS,
  BANK_INVALID,
  BANK_MESSAGES,
  createBankDetails,
  deleteBankDetails,
  fetchBankDetails,
  isValidId,
  updateBankDetails,
} from './payments-slice';

const details = (over: Partial<BankDetails> = {}): BankDetails => ({
  _id: 'b1',
  userId: 'u1',
  paymentId: 'local_ba_1',
  accountHolderName: 'Ada Lovelace',
  accountLast4: '6789',
  maskedAccountNumber: '****6789',
  bankCode: '110000000',
  bankName: 'First Bank',
  contactData: { name: 'Ada', email: 'ada@example.com', contact: '5550001111' },
  country: 'US',
  timestamp: '2026-01-01T00:00:00Z',
  createdAt: '2026-01-01T00:00:00Z',
  mode: 'test',
  ...over,
});
const input = { accountHolderName: 'Ada Lovelace', accountNumber: '000123456789', bankCode: '110000000', bankName: 'First Bank', contactData: { name: 'Ada', email: 'ada@example.com', contact: '5550001111' } };

afterEach(() => vi.useRealTimers());

describe('the payments slice', () => {
  it('caches bank details for one hour per user', async () => {
    const store = setupStore({ auth: signedInAuth() });
    mockApi.on('GET', '/payment/bank-details', { body: { message: BANK_MESSAGES.fetched, bankDetails: details() } });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    await store.dispatch(fetchBankDetails({ userId: 'u1' }));
    vi.setSystemTime(start + BANK_DETAILS_CACHE_MS - 1);
    await store.dispatch(fetchBankDetails({ userId: 'u1' }));
    expect(mockApi.calls('GET', '/payment/bank-details')).toHaveLength(1);
    vi.setSystemTime(start + BANK_DETAILS_CACHE_MS);
    await store.dispatch(fetchBankDetails({ userId: 'u1' }));
    expect(mockApi.calls('GET', '/payment/bank-details')).toHaveLength(2);
    await store.dispatch(fetchBankDetails({ userId: 'u1', force: true }));
    expect(mockApi.calls('GET', '/payment/bank-details')).toHaveLength(3);
    expect(mockApi.calls('GET', '/payment/bank-details')[0].url.searchParams.get('userId')).toBe('u1');
    expect(store.getState().payments.bankDetails.value?.maskedAccountNumber).toBe('****6789');
    expect(BANK_DETAILS_CACHE_MS).toBe(3_600_000);
  });

  it("refuses empty or 'null' ids with the seed's messages, sending nothing", async () => {
    const store = setupStore({ auth: signedInAuth() });
    expect((await store.dispatch(fetchBankDetails({ userId: 'null' }))).payload).toBe(BANK_INVALID.user);
    expect((await store.dispatch(updateBankDetails({ paymentId: '', input: {} }))).payload).toBe('Invalid payment ID for update');
    expect((await store.dispatch(deleteBankDetails('null'))).payload).toBe('Invalid payment ID for deletion');
    expect(store.getState().payments.error).toBe('Invalid payment ID for deletion');
    expect(isValidId(' ')).toBe(false);
    expect(isValidId('local_ba_1')).toBe(true);
  });

  it('creates, updates and deletes with the messages of seed 001, and never sends a second create while one is in flight', async () => {
    const store = setupStore({ auth: signedInAuth() });
    mockApi.on('POST', '/payment/bank-details', { status: 201, delayMs: 10, body: { message: 'Bank details created successfully', bankDetails: details() } });
    await Promise.all([store.dispatch(createBankDetails(input)), store.dispatch(createBankDetails(input))]);
    expect(mockApi.calls('POST', '/payment/bank-details')).toHaveLength(1);
    expect(store.getState().payments.message).toBe('Bank details created successfully');
    expect(store.getState().payments.bankDetails.value?.paymentId).toBe('local_ba_1');
    mockApi.on('PATCH', '/payment/bank-details/local_ba_1', { body: { message: 'Bank details updated successfully', bankDetails: details({ bankName: 'Second Bank' }) } });
    await store.dispatch(updateBankDetails({ paymentId: 'local_ba_1', input: { bankName: 'Second Bank' } }));
    expect(store.getState().payments.message).toBe('Bank details updated successfully');
    expect(store.getState().payments.bankDetails.value?.bankName).toBe('Second Bank');
    mockApi.on('DELETE', '/payment/bank-details/local_ba_1', { body: { message: 'Bank details deleted successfully' } });
    await store.dispatch(deleteBankDetails('local_ba_1'));
    expect(store.getState().payments.bankDetails.value).toBeNull();
    expect(store.getState().payments.saving).toBe(false);
  });

  it("shows the server's validation message, else the fallback", async () => {
    const store = setupStore({ auth: signedInAuth() });
    mockApi.on('POST', '/payment/bank-details', { status: 400, body: { message: 'accountNumber must be 4 to 20 digits' } });
    await store.dispatch(createBankDetails(input));
    expect(store.getState().payments.error).toBe('accountNumber must be 4 to 20 digits');
  });
});
