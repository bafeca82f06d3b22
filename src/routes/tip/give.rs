//! `POST /api/tips {postId, amount, currency, message?, public?, paymentMethodId?}` with an
//! optional `Idempotency-Key` header: 201 `{message: 'Thank you for your tip', tip, payment,
//! mode}` once paid, 202 when the reader must confirm the payment in the browser (with
//! `payment.clientSecret`), 200 with the same tip when an earlier request made it.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;

use super::body::{client_key, TipBody};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::Body;
use crate::services::billing::mode;
use crate::services::billing::tip_admin::with_names;
use crate::services::billing::tip_view::TipView;
use crate::services::billing::tips::{give as give_tip, MSG_THANKS};
use crate::state::AppState;

pub const MSG_CONFIRMATION_NEEDED: &str = "Please confirm the payment to complete your tip";

/// The payment of a tip.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipPayment {
    /// The secret the browser confirms a waiting payment with (null once paid).
    pub client_secret: Option<String>,
}

/// `{message, tip, payment, mode}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TipAnswer {
    pub message: String,
    pub tip: TipView,
    pub payment: TipPayment,
    pub mode: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn give(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    body: Body<TipBody>,
) -> ApiResult<HttpResponse> {
    let key = client_key(&req)?;
    let request = body.read()?.validate(key)?;
    let given = give_tip(&state, &me.user, request).await?;
    let listed = with_names(&state, vec![given.tip]).await?;
    let tip = TipView::of(&listed[0]);
    let pending = tip.is_pending();
    let answer = TipAnswer {
        message: if pending {
            MSG_CONFIRMATION_NEEDED
        } else {
            MSG_THANKS
        }
        .to_string(),
        tip,
        payment: TipPayment {
            client_secret: given.client_secret,
        },
        mode: mode(&state).to_string(),
    };
    Ok(if pending {
        HttpResponse::Accepted().json(answer)
    } else if given.replayed {
        HttpResponse::Ok().json(answer)
    } else {
        HttpResponse::Created().json(answer)
    })
}
