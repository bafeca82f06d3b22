//! The `bank_details` collection: one payout destination per user. The account number is stored
//! only sealed (AES-256-GCM, `payments::cipher`) beside its last four digits; `paymentId` is the
//! provider's id of the destination.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{is_duplicate_key, now, unique_index, Db, DbContext, DbError, DbResult};

pub const COLLECTION: &str = "bank_details";

/// Who to contact about payouts.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactData {
    pub name: String,
    pub email: String,
    /// A phone number.
    pub contact: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BankDetails {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub user_id: ObjectId,
    pub payment_id: String,
    pub account_holder_name: String,
    /// `v1:<nonce>:<ciphertext>`; never leaves the server.
    pub account_number_encrypted: String,
    pub account_last4: String,
    /// IFSC code or routing number.
    pub bank_code: String,
    pub bank_name: String,
    /// ISO country of the bank, from the code's form.
    pub country: String,
    pub contact_data: ContactData,
    pub mode: String,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<BankDetails> {
    db.database().collection(COLLECTION)
}

/// One record per user; unique payment id.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "userId": 1 }, "user_unique"),
            unique_index(doc! { "paymentId": 1 }, "payment_id_unique"),
        ],
        "creating bank details indexes",
    )
    .await?;
    Ok(())
}

/// Inserts a user's bank details; a second record for the user is `Duplicate`.
pub async fn insert(db: &Db, details: &BankDetails) -> DbResult<()> {
    match collection(db).insert_one(details).await {
        Ok(_) => Ok(()),
        Err(e) if is_duplicate_key(&e) => Err(DbError::Duplicate("Bank details for this user")),
        Err(e) => Err(e).db_context("inserting bank details"),
    }
}

/// A user's bank details.
pub async fn find_by_user(db: &Db, user: ObjectId) -> DbResult<Option<BankDetails>> {
    collection(db)
        .find_one(doc! { "userId": user })
        .await
        .db_context("loading bank details")
}

/// Bank details by their payment id.
pub async fn find_by_payment_id(db: &Db, payment_id: &str) -> DbResult<Option<BankDetails>> {
    collection(db)
        .find_one(doc! { "paymentId": payment_id })
        .await
        .db_context("loading bank details")
}

/// The users among `users` who have bank details.
pub async fn users_with_details(db: &Db, users: &[ObjectId]) -> DbResult<Vec<ObjectId>> {
    use futures_util::TryStreamExt;
    let found: Vec<BankDetails> = collection(db)
        .find(doc! { "userId": { "$in": users } })
        .await
        .db_context("listing bank details")?
        .try_collect()
        .await
        .db_context("reading bank details")?;
    Ok(found.into_iter().map(|d| d.user_id).collect())
}

/// A change to bank details (`None` keeps a field).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BankDetailsChanges {
    pub bank_name: Option<String>,
    pub contact_data: Option<ContactData>,
    /// The account, when any part of it changed.
    pub account: Option<AccountChange>,
}

/// The account as it is after a change: its holder, bank code and country, and when the number
/// changed, the number sealed and its last four digits.
#[derive(Debug, Clone, PartialEq)]
pub struct AccountChange {
    pub holder_name: String,
    pub bank_code: String,
    pub country: String,
    /// (`accountNumberEncrypted`, `accountLast4`).
    pub number: Option<(String, String)>,
}

impl BankDetailsChanges {
    fn set(&self) -> Document {
        let mut set = Document::new();
        if let Some(bank) = &self.bank_name {
            set.insert("bankName", bank.as_str());
        }
        if let Some(contact) = &self.contact_data {
            set.insert(
                "contactData",
                doc! {
                    "name": contact.name.as_str(),
                    "email": contact.email.as_str(),
                    "contact": contact.contact.as_str(),
                },
            );
        }
        if let Some(account) = &self.account {
            set.insert("accountHolderName", account.holder_name.as_str());
            set.insert("bankCode", account.bank_code.as_str());
            set.insert("country", account.country.as_str());
            if let Some((sealed, last4)) = &account.number {
                set.insert("accountNumberEncrypted", sealed.as_str());
                set.insert("accountLast4", last4.as_str());
            }
        }
        set
    }
}

/// Applies `changes`; returns the record after it.
pub async fn update(
    db: &Db,
    id: ObjectId,
    changes: &BankDetailsChanges,
) -> DbResult<Option<BankDetails>> {
    let mut set = changes.set();
    set.insert("updatedAt", now());
    collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$set": set })
        .return_document(ReturnDocument::After)
        .await
        .db_context("updating bank details")
}

/// Deletes a record.
pub async fn delete(db: &Db, id: ObjectId) -> DbResult<bool> {
    let res = collection(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("deleting bank details")?;
    Ok(res.deleted_count == 1)
}
