//! Writing plans: `POST /api/subscription/plans` (an eligible author), `PATCH
//! /api/subscription/plans/{planId}`, `POST /api/subscription/plans/{id}/activate` and `DELETE
//! /api/subscription/plans/{id}` (soft: subscribers keep access to the end of their period) —
//! the last three for the plan's author or an administrator. Each answers `{message, plan}`.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{audit_for_other, load_own_plan, plan_view, PlanAnswer};
use crate::audit::{Action, Target};
use crate::auth::AuthUser;
use crate::billing::{eligibility, mode};
use crate::domain::money::{parse_amount, parse_currency, Interval, MAX_PRICE, MIN_PRICE};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, Fields};
use crate::persistence::now;
use crate::persistence::plans::{self, Plan, PlanStatus};
use crate::state::AppState;

// Each field is read with its own message (`Fields::of`).
/// A new plan.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanBody {
    /// At most 100 characters.
    #[schema(value_type = String, max_length = 100)]
    pub name: Option<Value>,
    /// At most 2000 characters.
    #[schema(value_type = Option<String>, max_length = 2000)]
    pub description: Option<Value>,
    /// In the currency's smallest unit (999 for 9.99); a whole number, or its digits as text.
    #[schema(value_type = i64)]
    pub price: Option<Value>,
    /// One of the currencies the site sells in (the first by default).
    #[schema(value_type = Option<String>)]
    pub currency: Option<Value>,
    /// `month` (the default) or `year`.
    #[schema(value_type = Option<Interval>)]
    pub interval: Option<Value>,
    /// At most 20 texts of at most 200 characters.
    #[schema(value_type = Option<Vec<String>>)]
    pub benefits: Option<Value>,
    /// `active` (the default) or `inactive`.
    #[schema(value_type = Option<PlanStatus>)]
    pub status: Option<Value>,
}

/// A change to a plan: at least one field of [`PlanBody`].
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanChangeBody {
    #[schema(value_type = Option<String>, max_length = 100)]
    pub name: Option<Value>,
    #[schema(value_type = Option<String>, max_length = 2000)]
    pub description: Option<Value>,
    #[schema(value_type = Option<i64>)]
    pub price: Option<Value>,
    #[schema(value_type = Option<String>)]
    pub currency: Option<Value>,
    #[schema(value_type = Option<Interval>)]
    pub interval: Option<Value>,
    #[schema(value_type = Option<Vec<String>>)]
    pub benefits: Option<Value>,
    #[schema(value_type = Option<PlanStatus>)]
    pub status: Option<Value>,
}

pub const MAX_NAME_LEN: usize = 100;
pub const MAX_DESCRIPTION_LEN: usize = 2000;
pub const MAX_BENEFITS: usize = 20;
pub const MAX_BENEFIT_LEN: usize = 200;
/// Plans an author may have at once (deleted ones aside).
pub const MAX_PLANS_PER_AUTHOR: usize = 20;
pub const MSG_NAME_REQUIRED: &str = "Plan name is required";
pub const MSG_PRICE_REQUIRED: &str = "price is required";
pub const MSG_DELETED_PLAN: &str = "This plan has been deleted";

fn parse_name(raw: &Value) -> ApiResult<String> {
    let name = raw
        .as_str()
        .ok_or_else(|| ApiError::bad_request("name must be a string"))?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if name.is_empty() || name == "null" || name == "undefined" {
        return Err(ApiError::bad_request(MSG_NAME_REQUIRED));
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(ApiError::bad_request(format!(
            "Plan name must be at most {MAX_NAME_LEN} characters"
        )));
    }
    Ok(name)
}

fn parse_description(raw: Option<&Value>) -> ApiResult<String> {
    let text = match raw {
        None => String::new(),
        Some(Value::String(s)) => s.trim().to_string(),
        Some(_) => return Err(ApiError::bad_request("description must be a string")),
    };
    if text.chars().count() > MAX_DESCRIPTION_LEN {
        return Err(ApiError::bad_request(format!(
            "description must be at most {MAX_DESCRIPTION_LEN} characters"
        )));
    }
    Ok(text)
}

fn parse_benefits(raw: Option<&Value>) -> ApiResult<Vec<String>> {
    let list = match raw {
        None => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(ApiError::bad_request("benefits must be a list of texts")),
    };
    if list.len() > MAX_BENEFITS {
        return Err(ApiError::bad_request(format!(
            "A plan may list at most {MAX_BENEFITS} benefits"
        )));
    }
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let text = item
            .as_str()
            .ok_or_else(|| ApiError::bad_request(format!("benefit {} must be a text", i + 1)))?
            .trim();
        if text.is_empty() {
            return Err(ApiError::bad_request(format!("benefit {} is empty", i + 1)));
        }
        if text.chars().count() > MAX_BENEFIT_LEN {
            return Err(ApiError::bad_request(format!(
                "benefit {} must be at most {MAX_BENEFIT_LEN} characters",
                i + 1
            )));
        }
        out.push(text.to_string());
    }
    Ok(out)
}

/// Refuses a plan change that would sell while the author is not eligible (administrators may).
async fn ensure_may_sell(state: &AppState, me: &AuthUser, author: ObjectId) -> ApiResult<()> {
    if me.is_admin() && me.user.id != author {
        return Ok(());
    }
    let assessed = eligibility::assess(state, me.user.clone()).await?;
    if !assessed.verdict.is_eligible {
        return Err(ApiError::forbidden(format!(
            "You are not eligible to sell subscription plans yet. {}",
            assessed.verdict.message
        )));
    }
    Ok(())
}

/// A plan in the audit log.
pub fn plan_target(plan: &Plan) -> Target {
    Target::new("plan", plan.id.to_hex(), plan.name.clone())
}

fn answer(status: u16, message: &str, plan: &Plan, mode: &str) -> HttpResponse {
    let body = PlanAnswer {
        message: message.to_string(),
        plan: plan_view(plan, mode, None),
        mode: mode.to_string(),
    };
    match status {
        201 => HttpResponse::Created().json(body),
        _ => HttpResponse::Ok().json(body),
    }
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    let f = Fields::of::<PlanBody>(body.into_inner())?;
    let settings = &state.settings.payments;
    // Every field that is sent is read before the required ones are asked for, so a value of the
    // wrong type is named even when another field is missing.
    let name = f.get("name").map(parse_name).transpose()?;
    let description = parse_description(f.get("description"))?;
    let price = f
        .get("price")
        .map(|raw| parse_amount(raw, "price", MIN_PRICE, MAX_PRICE))
        .transpose()?;
    let currency = match f.get("currency") {
        Some(raw) => parse_currency(raw, &settings.currencies)?,
        None => settings.currencies[0].clone(),
    };
    let interval = f
        .get("interval")
        .map(Interval::parse)
        .transpose()?
        .unwrap_or(Interval::Month);
    let benefits = parse_benefits(f.get("benefits"))?;
    let status = f
        .get("status")
        .map(PlanStatus::parse)
        .transpose()?
        .unwrap_or(PlanStatus::Active);
    let name = name.ok_or_else(|| ApiError::bad_request(MSG_NAME_REQUIRED))?;
    let price = price.ok_or_else(|| ApiError::bad_request(MSG_PRICE_REQUIRED))?;
    ensure_may_sell(&state, &me, me.user.id).await?;
    if plans::by_author(&state.db, me.user.id, false).await?.len() >= MAX_PLANS_PER_AUTHOR {
        return Err(ApiError::conflict(format!(
            "An author may have at most {MAX_PLANS_PER_AUTHOR} plans; delete one first"
        )));
    }
    let at = now();
    let plan = Plan {
        id: ObjectId::new(),
        author_id: me.user.id,
        name,
        description,
        price,
        currency,
        interval,
        benefits,
        status,
        is_deleted: false,
        deleted_at: None,
        created_at: at,
        updated_at: at,
    };
    plans::insert(&state.db, &plan).await?;
    Ok(answer(
        201,
        "Plan created successfully",
        &plan,
        crate::billing::mode(&state),
    ))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn update(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    let f = Fields::of::<PlanChangeBody>(body.into_inner())?;
    let plan = load_own_plan(&state.db, &path, &me).await?;
    if plan.is_deleted {
        return Err(ApiError::conflict(MSG_DELETED_PLAN));
    }
    let settings = &state.settings.payments;
    let mut set = Document::new();
    if f.0.contains_key("name") {
        let raw = f
            .get("name")
            .ok_or_else(|| ApiError::bad_request(MSG_NAME_REQUIRED))?;
        set.insert("name", parse_name(raw)?);
    }
    if f.0.contains_key("description") {
        set.insert("description", parse_description(f.get("description"))?);
    }
    if f.0.contains_key("price") {
        let raw = f
            .get("price")
            .ok_or_else(|| ApiError::bad_request(MSG_PRICE_REQUIRED))?;
        set.insert("price", parse_amount(raw, "price", MIN_PRICE, MAX_PRICE)?);
    }
    if f.0.contains_key("currency") {
        let raw = f.get("currency").unwrap_or(&Value::Null);
        set.insert("currency", parse_currency(raw, &settings.currencies)?);
    }
    if f.0.contains_key("interval") {
        let raw = f.get("interval").unwrap_or(&Value::Null);
        set.insert("interval", Interval::parse(raw)?.as_str());
    }
    if f.0.contains_key("benefits") {
        set.insert("benefits", parse_benefits(f.get("benefits"))?);
    }
    if f.0.contains_key("status") {
        let status = PlanStatus::parse(f.get("status").unwrap_or(&Value::Null))?;
        if status == PlanStatus::Active && plan.status != PlanStatus::Active {
            ensure_may_sell(&state, &me, plan.author_id).await?;
        }
        set.insert("status", status.as_str());
    }
    if set.is_empty() {
        return Err(ApiError::bad_request(format!(
            "Nothing to change: send at least one of {}",
            Fields::names_of::<PlanChangeBody>().join(", ")
        )));
    }
    let changed: Vec<String> = set.keys().cloned().collect();
    let plan = plans::update(&state.db, plan.id, set)
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_PLAN_NOT_FOUND))?;
    audit_for_other(
        &state,
        &me,
        plan.author_id,
        Action::PlanUpdate,
        plan_target(&plan),
        json!({ "fields": changed }),
    )
    .await;
    Ok(answer(
        200,
        "Plan updated successfully",
        &plan,
        crate::billing::mode(&state),
    ))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn activate(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let plan = load_own_plan(&state.db, &path, &me).await?;
    if plan.is_deleted {
        return Err(ApiError::conflict(MSG_DELETED_PLAN));
    }
    ensure_may_sell(&state, &me, plan.author_id).await?;
    let plan = plans::update(
        &state.db,
        plan.id,
        doc! { "status": PlanStatus::Active.as_str() },
    )
    .await?
    .ok_or_else(|| ApiError::not_found(super::MSG_PLAN_NOT_FOUND))?;
    audit_for_other(
        &state,
        &me,
        plan.author_id,
        Action::PlanActivate,
        plan_target(&plan),
        json!({}),
    )
    .await;
    Ok(answer(
        200,
        "Plan activated successfully",
        &plan,
        mode(&state),
    ))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn delete(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let plan = load_own_plan(&state.db, &path, &me).await?;
    let plan = if plan.is_deleted {
        plan
    } else {
        plans::update(
            &state.db,
            plan.id,
            doc! { "isDeleted": true, "deletedAt": now(), "status": PlanStatus::Inactive.as_str() },
        )
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_PLAN_NOT_FOUND))?
    };
    audit_for_other(
        &state,
        &me,
        plan.author_id,
        Action::PlanDelete,
        plan_target(&plan),
        json!({}),
    )
    .await;
    Ok(answer(
        200,
        "Plan deleted successfully",
        &plan,
        mode(&state),
    ))
}
