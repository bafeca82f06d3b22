//! `POST /api/earning/admin/payouts {users}` (administrators) → `{message, results, paid,
//! skipped, failed}`: pays each listed author (ids, or objects with `userId`/`_id`) their
//! available balance at or above `payments.min_payout`, one result per author and currency
//! (`paid`, `skipped` with the reason, `failed` with the error). Sending the same request again,
//! or two administrators at once, pays once (see `billing::payouts`).

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::extract::{Body, FieldValue, Refusal, Sent};
use crate::services::billing::{
    mode,
    payouts::{pay_author, PayoutResult},
};
use crate::state::AppState;

/// Most authors one request may pay.
pub const MAX_USERS: usize = 100;
pub const MSG_USERS_REQUIRED: &str = "users must list the ids of the authors to pay";

/// `{users}`: the authors to pay (1 to 100), each an id or an object with `userId` or `_id`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PayoutsBody {
    #[serde(default)]
    #[schema(value_type = Vec<PayoutTarget>, min_items = 1, max_items = 100, required = true)]
    pub users: Sent<PayoutUsers>,
}

/// `users` of a payout: 1 to 100 distinct authors, in the order given.
#[derive(Debug, Clone, PartialEq)]
pub struct PayoutUsers(pub Vec<ObjectId>);

impl FieldValue for PayoutUsers {
    fn read(value: Value) -> Result<Self, Refusal> {
        parse_users(&value).map(PayoutUsers)
    }
}
crate::field_value!(PayoutUsers);

impl PayoutsBody {
    /// The authors to pay.
    pub fn validate(self) -> ApiResult<Vec<ObjectId>> {
        Ok(self.users.required(MSG_USERS_REQUIRED)?.0.clone())
    }
}

/// One author to pay: an id, or an object carrying it.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum PayoutTarget {
    Id(String),
    User {
        #[serde(rename = "userId")]
        #[schema(value_type = Option<String>)]
        user_id: Option<String>,
        #[serde(rename = "_id")]
        #[schema(value_type = Option<String>)]
        id: Option<String>,
    },
}

/// `{message, paid, skipped, failed, results, mode}`: one result per author and currency.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PayoutsAnswer {
    pub message: String,
    pub paid: usize,
    pub skipped: usize,
    pub failed: usize,
    pub results: Vec<PayoutResult>,
    pub mode: String,
}

fn parse_users(raw: &Value) -> Result<Vec<ObjectId>, Refusal> {
    let list = raw
        .as_array()
        .filter(|l| !l.is_empty())
        .ok_or_else(|| Refusal::new(MSG_USERS_REQUIRED))?;
    if list.len() > MAX_USERS {
        return Err(Refusal::new(format!(
            "At most {MAX_USERS} authors can be paid in one request"
        )));
    }
    let mut ids = Vec::new();
    for item in list {
        let text = match item {
            Value::String(s) => Some(s.as_str()),
            Value::Object(o) => o
                .get("userId")
                .or_else(|| o.get("_id"))
                .and_then(Value::as_str),
            _ => None,
        };
        let id = text
            .and_then(|t| ObjectId::parse_str(t.trim()).ok())
            .ok_or_else(|| {
                Refusal::with_code("invalid_id", format!("Invalid user ID in users: {item}"))
            })?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Ok(ids)
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn payouts(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: Body<PayoutsBody>,
) -> ApiResult<HttpResponse> {
    crate::services::reauth::require_recent(&state, &admin.0).await?;
    let users = body.read()?.validate()?;
    let mut results = Vec::new();
    for user in users {
        results.extend(pay_author(&state, user, admin.0.user.id).await?);
    }
    let count = |status: &str| results.iter().filter(|r| r.status == status).count();
    crate::audit::record(
        &state,
        &admin.0,
        crate::audit::Action::Payout,
        crate::audit::Target::site(),
        json!({ "results": results }),
    )
    .await;
    Ok(HttpResponse::Ok().json(PayoutsAnswer {
        message: "Payouts processed".to_string(),
        paid: count("paid"),
        skipped: count("skipped"),
        failed: count("failed"),
        results,
        mode: mode(&state).to_string(),
    }))
}
