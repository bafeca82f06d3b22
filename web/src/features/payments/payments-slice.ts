/**
 * Bank details and an author's earnings (seed 001 §3 "Bank details", §4 "Other", §5, §9).
 * - Bank details are cached per user for one hour (3600000 ms): a fetch inside that time is not
 *   sent again unless forced; create, update and delete refresh the cache.
 * - Update and delete need a valid payment id ('Invalid payment ID for update' / 'for deletion'),
 *   viewing a valid user id ('Invalid user ID'); empty or the text null is invalid.
 * - Create, update and delete are refused while the same one is in flight.
 * The earnings are a plain answer: the earnings panel reads them through the generated endpoint
 * (`GET /earning/my-earnings`, EARNINGS_PAGE_SIZE a page).
 */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import type {
  DeletePaymentBankDetailsByIdApiResponse,
  GetPaymentBankDetailsApiResponse,
  PatchPaymentBankDetailsByIdApiResponse,
  PostPaymentBankDetailsApiResponse,
} from '@/api/endpoints';
import { injectReducers } from '@/app/store';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import type { BankDetails } from '@/types/money';

export const BANK_DETAILS_CACHE_MS = 3_600_000;
export const BANK_MESSAGES = {
  created: 'Bank details created successfully',
  updated: 'Bank details updated successfully',
  fetched: 'Bank details fetched successfully',
  deleted: 'Bank details deleted successfully',
} as const;
export const BANK_INVALID = {
  update: 'Invalid payment ID for update',
  deletion: 'Invalid payment ID for deletion',
  user: 'Invalid user ID',
} as const;
export const PAYMENTS_FALLBACK = {
  fetch: 'Failed to fetch bank details',
  create: 'Failed to create bank details',
  update: 'Failed to update bank details',
  delete: 'Failed to delete bank details',
  earnings: 'Failed to fetch earnings',
} as const;

/** Seed 001 §5: empty or the text null is not an id. */
export function isValidId(id: string | null | undefined): id is string {
  const t = (id ?? '').trim();
  return t !== '' && t !== 'null' && t !== 'undefined';
}

export interface BankDetailsInput {
  accountHolderName: string;
  accountNumber?: string;
  bankCode: string;
  bankName: string;
  contactData: { name: string; email: string; contact: string };
}

/** Ledger entries a page of the earnings panel shows. */
export const EARNINGS_PAGE_SIZE = 10;

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface PaymentsState {
  bankDetails: { userId: string | null; value: BankDetails | null; fetchedAt: number | null; status: Status; error: string | null };
  saving: boolean;
  message: string | null;
  error: string | null;
}

export const initialPaymentsState: PaymentsState = {
  bankDetails: { userId: null, value: null, fetchedAt: null, status: 'idle', error: null },
  saving: false,
  message: null,
  error: null,
};

type Root = { payments: PaymentsState };

export const fetchBankDetails = createAsyncThunk<{ bankDetails: BankDetails | null; fetchedAt: number }, { userId: string; force?: boolean }, { state: Root; rejectValue: string }>(
  'payments/fetchBankDetails',
  async ({ userId }, { rejectWithValue }) => {
    if (!isValidId(userId)) return rejectWithValue(BANK_INVALID.user);
    try {
      const r = await http.get<GetPaymentBankDetailsApiResponse>('/payment/bank-details', PAYMENTS_FALLBACK.fetch, { userId });
      return { bankDetails: r?.bankDetails ?? null, fetchedAt: Date.now() };
    } catch (e) {
      return rejectWithValue(errorMessage(e, PAYMENTS_FALLBACK.fetch));
    }
  },
  {
    // The one-hour cache: the same user's details are not asked again inside it.
    condition: ({ userId, force }, { getState }) => {
      const cached = getState().payments.bankDetails;
      if (force || cached.userId !== userId || cached.fetchedAt === null) return true;
      return Date.now() - cached.fetchedAt >= BANK_DETAILS_CACHE_MS;
    },
  },
);

const notSaving = (_: unknown, { getState }: { getState: () => Root }) => !getState().payments.saving;

export const createBankDetails = createAsyncThunk<{ bankDetails: BankDetails; message: string }, BankDetailsInput, { state: Root; rejectValue: string }>(
  'payments/createBankDetails',
  async (input, { rejectWithValue }) => {
    try {
      const r = await http.post<PostPaymentBankDetailsApiResponse>('/payment/bank-details', input, PAYMENTS_FALLBACK.create);
      return { bankDetails: r.bankDetails, message: r.message || BANK_MESSAGES.created };
    } catch (e) {
      return rejectWithValue(errorMessage(e, PAYMENTS_FALLBACK.create));
    }
  },
  { condition: notSaving },
);

export const updateBankDetails = createAsyncThunk<{ bankDetails: BankDetails; message: string }, { paymentId: string; input: Partial<BankDetailsInput> }, { state: Root; rejectValue: string }>(
  'payments/updateBankDetails',
  async ({ paymentId, input }, { rejectWithValue }) => {
    if (!isValidId(paymentId)) return rejectWithValue(BANK_INVALID.update);
    try {
      const r = await http.patch<PatchPaymentBankDetailsByIdApiResponse>(`/payment/bank-details/${encodeURIComponent(paymentId)}`, input, PAYMENTS_FALLBACK.update);
      return { bankDetails: r.bankDetails, message: r.message || BANK_MESSAGES.updated };
    } catch (e) {
      return rejectWithValue(errorMessage(e, PAYMENTS_FALLBACK.update));
    }
  },
  { condition: notSaving },
);

export const deleteBankDetails = createAsyncThunk<{ message: string }, string, { state: Root; rejectValue: string }>(
  'payments/deleteBankDetails',
  async (paymentId, { rejectWithValue }) => {
    if (!isValidId(paymentId)) return rejectWithValue(BANK_INVALID.deletion);
    try {
      const r = await http.delete<DeletePaymentBankDetailsByIdApiResponse>(`/payment/bank-details/${encodeURIComponent(paymentId)}`, PAYMENTS_FALLBACK.delete);
      return { message: r?.message || BANK_MESSAGES.deleted };
    } catch (e) {
      return rejectWithValue(errorMessage(e, PAYMENTS_FALLBACK.delete));
    }
  },
  { condition: notSaving },
);


const paymentsSlice = createSlice({
  name: 'payments',
  initialState: initialPaymentsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialPaymentsState)
      .addCase(fetchBankDetails.pending, (state, action) => {
        if (state.bankDetails.userId !== action.meta.arg.userId) state.bankDetails.value = null;
        state.bankDetails.userId = action.meta.arg.userId;
        state.bankDetails.status = 'loading';
        state.bankDetails.error = null;
      })
      .addCase(fetchBankDetails.fulfilled, (state, action) => {
        state.bankDetails.value = action.payload.bankDetails;
        state.bankDetails.fetchedAt = action.payload.fetchedAt;
        state.bankDetails.status = 'succeeded';
      })
      .addCase(fetchBankDetails.rejected, (state, action) => {
        if (action.meta.condition) return;
        state.bankDetails.status = 'failed';
        state.bankDetails.error = action.payload ?? PAYMENTS_FALLBACK.fetch;
      })
      .addCase(createBankDetails.fulfilled, (state, action) => {
        state.bankDetails = { userId: action.payload.bankDetails.userId, value: action.payload.bankDetails, fetchedAt: Date.now(), status: 'succeeded', error: null };
        state.message = action.payload.message;
      })
      .addCase(updateBankDetails.fulfilled, (state, action) => {
        state.bankDetails = { userId: action.payload.bankDetails.userId, value: action.payload.bankDetails, fetchedAt: Date.now(), status: 'succeeded', error: null };
        state.message = action.payload.message;
      })
      .addCase(deleteBankDetails.fulfilled, (state, action) => {
        state.bankDetails.value = null;
        state.bankDetails.fetchedAt = Date.now();
        state.message = action.payload.message;
      })
      .addMatcher(
        (action) => [createBankDetails, updateBankDetails, deleteBankDetails].some((t) => t.pending.match(action)),
        (state) => {
          state.saving = true;
          state.message = null;
          state.error = null;
        },
      )
      .addMatcher(
        (action) => [createBankDetails, updateBankDetails, deleteBankDetails].some((t) => t.fulfilled.match(action)),
        (state) => {
          state.saving = false;
        },
      )
      .addMatcher(
        (action) => [createBankDetails, updateBankDetails, deleteBankDetails].some((t) => t.rejected.match(action)),
        (state, action: { payload?: string; meta?: { condition?: boolean } }) => {
          if (action.meta?.condition) return;
          state.saving = false;
          state.error = action.payload ?? PAYMENTS_FALLBACK.update;
        },
      );
  },
});

export const paymentsReducer = paymentsSlice.reducer;
// Loaded on demand (bank details and earnings are not a reader's first load): the slice joins the
// store when this module loads.
injectReducers({ payments: paymentsReducer });
export const selectPayments = (state: { payments: PaymentsState }) => state.payments;
