/**
 * The author's bank details (the studio's `tab=bank-details`): view (masked), create, update,
 * delete, with the server's messages and validation. Read through the one-hour cache.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { FormError, FormField, FormStatus } from '@/components/form-field';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { createBankDetails, deleteBankDetails, fetchBankDetails, selectPayments, updateBankDetails, type BankDetailsInput } from '../payments-slice';

const EMPTY: BankDetailsInput = { accountHolderName: '', accountNumber: '', bankCode: '', bankName: '', contactData: { name: '', email: '', contact: '' } };

export function BankDetailsPanel({ userId }: { userId: string }) {
  const dispatch = useAppDispatch();
  const { bankDetails, saving, message, error } = useAppSelector(selectPayments);
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [form, setForm] = useState<BankDetailsInput>(EMPTY);
  const details = bankDetails.userId === userId ? bankDetails.value : null;

  useEffect(() => {
    void dispatch(fetchBankDetails({ userId }));
  }, [dispatch, userId]);

  const startEdit = () => {
    setForm(
      details
        ? { accountHolderName: details.accountHolderName, accountNumber: '', bankCode: details.bankCode, bankName: details.bankName, contactData: { ...details.contactData } }
        : EMPTY,
    );
    setEditing(true);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const input: Partial<BankDetailsInput> = { ...form };
    // An empty account number on update keeps the stored one.
    if (details && !form.accountNumber) delete input.accountNumber;
    const result = details
      ? await dispatch(updateBankDetails({ paymentId: details.paymentId, input }))
      : await dispatch(createBankDetails(input as BankDetailsInput));
    if (createBankDetails.fulfilled.match(result) || updateBankDetails.fulfilled.match(result)) setEditing(false);
  };

  const remove = async () => {
    if (!details) return;
    const result = await dispatch(deleteBankDetails(details.paymentId));
    if (deleteBankDetails.fulfilled.match(result)) setConfirmDelete(false);
  };

  const set = (key: keyof BankDetailsInput) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });
  const setContact = (key: 'name' | 'email' | 'contact') => (e: { target: { value: string } }) => setForm({ ...form, contactData: { ...form.contactData, [key]: e.target.value } });

  return (
    <section className="panel" aria-labelledby="bank-title" data-testid="bank-details">
      <h2 id="bank-title">Bank details</h2>
      <p className="muted">Where your payouts go. Only the last four digits of the account number are ever shown.</p>
      {bankDetails.status === 'loading' && !details ? <p role="status">Loading...</p> : null}
      {bankDetails.status === 'failed' ? (
        <div className="list-state list-state--error" role="alert">
          <span>{bankDetails.error}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(fetchBankDetails({ userId, force: true }))}>
            Try again
          </button>
        </div>
      ) : null}
      <FormStatus message={message} />
      {!editing && bankDetails.status === 'succeeded' ? (
        details ? (
          <>
            <dl className="facts">
              <dt>Account holder</dt>
              <dd>{details.accountHolderName}</dd>
              <dt>Account number</dt>
              <dd>{details.maskedAccountNumber}</dd>
              <dt>Bank</dt>
              <dd>
                {details.bankName} ({details.bankCode})
              </dd>
              <dt>Contact</dt>
              <dd>
                {details.contactData.name} · {details.contactData.email} · {details.contactData.contact}
              </dd>
            </dl>
            <div className="button-row">
              <button type="button" className="button button--small" onClick={startEdit}>
                Update bank details
              </button>
              <button type="button" className="button button--small button--danger" onClick={() => setConfirmDelete(true)}>
                Delete bank details
              </button>
            </div>
          </>
        ) : (
          <>
            <p>No bank details yet: payouts wait until you add them.</p>
            <button type="button" className="button button--small" onClick={startEdit}>
              Add bank details
            </button>
          </>
        )
      ) : null}
      {!editing ? <FormError message={error} /> : null}
      {editing ? (
        <form className="form" onSubmit={(e) => void submit(e)} aria-busy={saving}>
          <FormField id="bank-holder" label="Account holder name" required minLength={2} maxLength={100} value={form.accountHolderName} onChange={set('accountHolderName')} />
          <FormField
            id="bank-number"
            label="Account number"
            inputMode="numeric"
            autoComplete="off"
            required={!details}
            value={form.accountNumber ?? ''}
            onChange={set('accountNumber')}
            hint={details ? `Leave empty to keep ${details.maskedAccountNumber}. 4 to 20 digits.` : '4 to 20 digits.'}
          />
          <FormField id="bank-code" label="IFSC code or US routing number" required value={form.bankCode} onChange={set('bankCode')} />
          <FormField id="bank-name" label="Bank name" required minLength={2} maxLength={100} value={form.bankName} onChange={set('bankName')} />
          <fieldset className="fieldset">
            <legend>Contact for this account</legend>
            <FormField id="bank-contact-name" label="Name" required value={form.contactData.name} onChange={setContact('name')} />
            <FormField id="bank-contact-email" label="Email" type="email" required value={form.contactData.email} onChange={setContact('email')} />
            <FormField id="bank-contact-phone" label="Phone" type="tel" required value={form.contactData.contact} onChange={setContact('contact')} hint="7 to 15 digits." />
          </fieldset>
          <FormError message={error} />
          <div className="button-row">
            <button type="submit" className="button" disabled={saving}>
              {saving ? 'Saving...' : details ? 'Save changes' : 'Save bank details'}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {confirmDelete && details ? (
        <ConfirmDialog title="Delete bank details?" confirmLabel="Delete" danger busy={saving} onConfirm={() => void remove()} onCancel={() => setConfirmDelete(false)}>
          <p>
            The account {details.maskedAccountNumber} at {details.bankName} is removed here and at the payment provider. Payouts wait until you add bank details again.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
