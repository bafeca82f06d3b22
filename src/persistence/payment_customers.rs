//! The `payment_customers` collection: each user's customer id at the payment provider
//! (`_id` = user id), made once.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{is_duplicate_key, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "payment_customers";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentCustomer {
    #[serde(rename = "_id")]
    pub user_id: ObjectId,
    pub provider: String,
    pub customer_id: String,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<PaymentCustomer> {
    db.database().collection(COLLECTION)
}

/// The user's customer id at `provider`, if made.
pub async fn find(db: &Db, user: ObjectId, provider: &str) -> DbResult<Option<String>> {
    Ok(collection(db)
        .find_one(doc! { "_id": user, "provider": provider })
        .await
        .db_context("loading a payment customer")?
        .map(|c| c.customer_id))
}

/// Stores the user's customer id (the first stored one stays).
pub async fn save(db: &Db, user: ObjectId, provider: &str, customer_id: &str) -> DbResult<()> {
    let record = PaymentCustomer {
        user_id: user,
        provider: provider.to_string(),
        customer_id: customer_id.to_string(),
        created_at: now(),
    };
    match collection(db).insert_one(&record).await {
        Ok(_) => Ok(()),
        Err(e) if is_duplicate_key(&e) => Ok(()),
        Err(e) => Err(e).db_context("saving a payment customer"),
    }
}
