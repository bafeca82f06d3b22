//! Writing plans: `POST /api/subscription/plans` (an eligible author), `PATCH
//! /api/subscription/plans/{planId}`, `POST /api/subscription/plans/{id}/activate` and `DELETE
//! /api/subscription/plans/{id}` (soft: subscribers keep access to the end of their period) —
//! the last three for the plan's author or an administrator. Each answers `{message, plan}`.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{load_own_plan, plan_view, PlanAnswer};
use crate::audit::record_for_other;
use crate::audit::{Action, Target};
use crate::auth::AuthUser;
use crate::domain::money::PlanStatus;
use crate::domain::money::{parse_amount, parse_currency, Interval, MAX_PRICE, MIN_PRICE};
use crate::error::{ApiError, ApiResult};
use crate::extract::{field_names, Body, FieldValue, Refusal, Sent};
use crate::persistence::now;
use crate::persistence::plans::{self, Plan, PlanChanges};
use crate::services::billing::{eligibility, mode};
use crate::state::AppState;

/// A new plan.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanBody {
    /// At most 100 characters.
    #[serde(default)]
    #[schema(value_type = String, max_length = 100, required = true)]
    pub name: Sent<PlanName>,
    /// At most 2000 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 2000)]
    pub description: Sent<Description>,
    /// In the currency's smallest unit (999 for 9.99); a whole number, or its digits as text.
    #[serde(default)]
    #[schema(value_type = i64, required = true)]
    pub price: Sent<Price>,
    /// One of the currencies the site sells in (the first by default).
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub currency: Sent<CurrencyText>,
    /// `month` (the default) or `year`.
    #[serde(default)]
    #[schema(value_type = Option<Interval>)]
    pub interval: Sent<IntervalValue>,
    /// At most 20 texts of at most 200 characters.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub benefits: Sent<Benefits>,
    /// `active` (the default) or `inactive`.
    #[serde(default)]
    #[schema(value_type = Option<PlanStatus>)]
    pub status: Sent<StatusValue>,
}

/// A change to a plan: at least one field of [`PlanBody`].
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanChangeBody {
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 100)]
    pub name: Sent<PlanName>,
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 2000)]
    pub description: Sent<Description>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub price: Sent<Price>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub currency: Sent<CurrencyText>,
    #[serde(default)]
    #[schema(value_type = Option<Interval>)]
    pub interval: Sent<IntervalValue>,
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub benefits: Sent<Benefits>,
    #[serde(default)]
    #[schema(value_type = Option<PlanStatus>)]
    pub status: Sent<StatusValue>,
}

/// A plan's name: at most 100 characters, spaces collapsed, not blank.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanName(pub String);

/// A plan's description: at most 2000 characters, trimmed.
#[derive(Debug, Clone, PartialEq)]
pub struct Description(pub String);

/// A price in the currency's smallest unit, from [`MIN_PRICE`] to [`MAX_PRICE`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price(pub i64);

/// A currency as sent: its code trimmed and lowercased, or `None` for a value that is not a
/// text (the codes sold are configuration, so [`parse_currency`] checks it in `validate`).
#[derive(Debug, Clone, PartialEq)]
pub struct CurrencyText(pub Option<String>);

/// `month` or `year` (and their synonyms).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntervalValue(pub Interval);

/// At most 20 benefits of at most 200 characters.
#[derive(Debug, Clone, PartialEq)]
pub struct Benefits(pub Vec<String>);

/// `status` of a plan: `active` or `inactive`.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusValue(pub PlanStatus);

impl FieldValue for StatusValue {
    fn read(value: Value) -> Result<Self, Refusal> {
        PlanStatus::parse(&value).map(StatusValue).map_err(refusal)
    }
}

impl FieldValue for PlanName {
    fn read(v: Value) -> Result<Self, Refusal> {
        parse_name(&v).map(PlanName).map_err(refusal)
    }
}

impl FieldValue for Description {
    fn read(v: Value) -> Result<Self, Refusal> {
        parse_description(Some(&v))
            .map(Description)
            .map_err(refusal)
    }
}

impl FieldValue for Price {
    fn read(v: Value) -> Result<Self, Refusal> {
        parse_amount(&v, "price", MIN_PRICE, MAX_PRICE)
            .map(Price)
            .map_err(refusal)
    }
}

impl FieldValue for CurrencyText {
    fn read(v: Value) -> Result<Self, Refusal> {
        Ok(CurrencyText(
            v.as_str().map(|code| code.trim().to_lowercase()),
        ))
    }
}

impl FieldValue for IntervalValue {
    fn read(v: Value) -> Result<Self, Refusal> {
        Interval::parse(&v).map(IntervalValue).map_err(refusal)
    }
}

impl FieldValue for Benefits {
    fn read(v: Value) -> Result<Self, Refusal> {
        parse_benefits(Some(&v)).map(Benefits).map_err(refusal)
    }
}

crate::field_value!(
    PlanName,
    Description,
    Price,
    CurrencyText,
    IntervalValue,
    Benefits,
    StatusValue
);

/// The message of a domain parser's refusal.
fn refusal(e: impl std::fmt::Display) -> Refusal {
    Refusal::new(e.to_string())
}

/// The currency of a body: `null` and other values that are not a sold code are refused with
/// the list of codes sold.
fn currency(raw: Option<&CurrencyText>, allowed: &[String]) -> ApiResult<String> {
    let code = raw.and_then(|c| c.0.clone());
    Ok(parse_currency(
        &code.map_or(Value::Null, Value::String),
        allowed,
    )?)
}

/// A new plan's fields, checked.
pub struct NewPlan {
    pub name: String,
    pub description: String,
    pub price: i64,
    pub currency: String,
    pub interval: Interval,
    pub benefits: Vec<String>,
    pub status: PlanStatus,
}

impl PlanBody {
    /// Every field that is sent is read before the required ones are asked for, so a value of
    /// the wrong type is named even when another field is missing.
    pub fn validate(&self, currencies: &[String]) -> ApiResult<NewPlan> {
        let name = self.name.value()?;
        let description = self.description.value()?;
        let price = self.price.value()?;
        let currency = match self.currency.value()? {
            Some(raw) => currency(Some(raw), currencies)?,
            None => currencies[0].clone(),
        };
        let interval = self.interval.value()?.map_or(Interval::Month, |i| i.0);
        let benefits = self.benefits.value()?;
        let status = self.status.value()?.map_or(PlanStatus::Active, |s| s.0);
        let name = name.ok_or_else(|| ApiError::bad_request(MSG_NAME_REQUIRED))?;
        let price = price.ok_or_else(|| ApiError::bad_request(MSG_PRICE_REQUIRED))?;
        Ok(NewPlan {
            name: name.0.clone(),
            description: description.map(|d| d.0.clone()).unwrap_or_default(),
            price: price.0,
            currency,
            interval,
            benefits: benefits.map(|b| b.0.clone()).unwrap_or_default(),
            status,
        })
    }
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
    body: Body<PlanBody>,
) -> ApiResult<HttpResponse> {
    let NewPlan {
        name,
        description,
        price,
        currency,
        interval,
        benefits,
        status,
    } = body.read()?.validate(&state.settings.payments.currencies)?;
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
        crate::services::billing::mode(&state),
    ))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn update(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
    body: Body<PlanChangeBody>,
) -> ApiResult<HttpResponse> {
    let f = body.read()?;
    let plan = load_own_plan(&state.db, &path, &me).await?;
    if plan.is_deleted {
        return Err(ApiError::conflict(MSG_DELETED_PLAN));
    }
    let settings = &state.settings.payments;
    let mut changes = PlanChanges::default();
    if f.name.was_sent() {
        changes.name = Some(f.name.required(MSG_NAME_REQUIRED)?.0.clone());
    }
    if f.description.was_sent() {
        let text = f.description.value()?.map(|d| d.0.clone());
        changes.description = Some(text.unwrap_or_default());
    }
    if f.price.was_sent() {
        changes.price = Some(f.price.required(MSG_PRICE_REQUIRED)?.0);
    }
    if f.currency.was_sent() {
        changes.currency = Some(currency(f.currency.value()?, &settings.currencies)?);
    }
    if f.interval.was_sent() {
        changes.interval = Some(match f.interval.value()? {
            Some(i) => i.0,
            None => Interval::parse(&Value::Null)?,
        });
    }
    if f.benefits.was_sent() {
        let list = f.benefits.value()?.map(|b| b.0.clone());
        changes.benefits = Some(list.unwrap_or_default());
    }
    if f.status.was_sent() {
        let status = match f.status.value()? {
            Some(s) => s.0,
            None => PlanStatus::parse(&Value::Null)?,
        };
        if status == PlanStatus::Active && plan.status != PlanStatus::Active {
            ensure_may_sell(&state, &me, plan.author_id).await?;
        }
        changes.status = Some(status);
    }
    let changed = changes.fields();
    if changed.is_empty() {
        return Err(ApiError::bad_request(format!(
            "Nothing to change: send at least one of {}",
            field_names::<PlanChangeBody>().join(", ")
        )));
    }
    let plan = plans::change(&state.db, plan.id, &changes)
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_PLAN_NOT_FOUND))?;
    record_for_other(
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
        crate::services::billing::mode(&state),
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
    let plan = plans::set_status(&state.db, plan.id, PlanStatus::Active)
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_PLAN_NOT_FOUND))?;
    record_for_other(
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
        plans::mark_deleted(&state.db, plan.id)
            .await?
            .ok_or_else(|| ApiError::not_found(super::MSG_PLAN_NOT_FOUND))?
    };
    record_for_other(
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
