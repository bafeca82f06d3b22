//! The audit log of administrator actions: every administrator route records what it did with
//! [`record`], after the action succeeded. Entries are append-only; `GET /api/admin/audit-log`
//! lists them.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::Document;
use serde::Serialize;
use serde_json::Value;

use crate::auth::AuthUser;
use crate::persistence::audit_log::{self, AuditEntry};
use crate::persistence::now;
use crate::persistence::posts::Post;
use crate::persistence::users::User;
use crate::post_view::iso;
use crate::state::AppState;

/// What an administrator did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    UserBlock,
    UserUnblock,
    UserPromote,
    UserDemote,
    UserDelete,
    PostBlock,
    PostUnblock,
    PostUpdate,
    PostDelete,
    AppealDecide,
    ContactHandled,
    ContactReply,
    ReportReview,
    ReportNotice,
    EmailRetry,
    DataExport,
    NoticeSend,
    NoticeBroadcast,
    BannerCreate,
    BannerDeactivate,
    BannerDeleteAll,
    FeedbackPrompt,
    CategorySeed,
    PlanUpdate,
    PlanActivate,
    PlanDelete,
    PlanStatus,
    SubscriptionCancel,
    SubscriptionRefund,
    TipRefund,
    SubscriptionUnsubscribe,
    SubscriptionReminders,
    SubscriptionCriteria,
    EligibilityToggle,
    EligibilityGrant,
    EligibilityOverride,
    MilestoneOverride,
    MilestoneReset,
    Payout,
    BankDetailsCreate,
    BankDetailsUpdate,
    BankDetailsDelete,
    TwoFactorEnable,
    TwoFactorDisable,
    PasskeyAdd,
    PasskeySignIn,
    PasskeyReauth,
    PasskeyRename,
    PasskeyRemove,
    PasskeyRefused,
    ApiKeyCreate,
    ApiKeyRevoke,
    RecoveryCodesReplace,
    AccountDeletionSchedule,
    AccountDeletionCancel,
    AccountDeletionCarryOut,
    DataExportRequest,
    DataExportDownload,
    AdminSettingsUpdate,
    ImportStart,
    ImportConfirm,
    ImportCancel,
    ImportRemove,
}

impl Action {
    /// The stored name, `resource.verb`.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::UserBlock => "user.block",
            Action::UserUnblock => "user.unblock",
            Action::UserPromote => "user.promote",
            Action::UserDemote => "user.demote",
            Action::UserDelete => "user.delete",
            Action::PostBlock => "post.block",
            Action::PostUnblock => "post.unblock",
            Action::PostUpdate => "post.update",
            Action::PostDelete => "post.delete",
            Action::AppealDecide => "appeal.decide",
            Action::ContactHandled => "contact.handled",
            Action::ContactReply => "contact.reply",
            Action::ReportReview => "report.review",
            Action::ReportNotice => "report.notice",
            Action::EmailRetry => "email.retry",
            Action::DataExport => "data.export",
            Action::NoticeSend => "notice.send",
            Action::NoticeBroadcast => "notice.broadcast",
            Action::BannerCreate => "banner.create",
            Action::BannerDeactivate => "banner.deactivate",
            Action::BannerDeleteAll => "banner.delete_all",
            Action::FeedbackPrompt => "feedback.prompt",
            Action::CategorySeed => "category.seed",
            Action::PlanUpdate => "plan.update",
            Action::PlanActivate => "plan.activate",
            Action::PlanDelete => "plan.delete",
            Action::PlanStatus => "plan.status",
            Action::SubscriptionCancel => "subscription.cancel",
            Action::SubscriptionRefund => "subscription.refund",
            Action::TipRefund => "tip.refund",
            Action::SubscriptionUnsubscribe => "subscription.unsubscribe",
            Action::SubscriptionReminders => "subscription.reminders",
            Action::SubscriptionCriteria => "subscription.criteria",
            Action::EligibilityToggle => "eligibility.toggle",
            Action::EligibilityGrant => "eligibility.grant",
            Action::EligibilityOverride => "eligibility.override",
            Action::MilestoneOverride => "eligibility.milestone",
            Action::MilestoneReset => "eligibility.milestone_reset",
            Action::Payout => "earning.payout",
            Action::BankDetailsCreate => "bank_details.create",
            Action::BankDetailsUpdate => "bank_details.update",
            Action::BankDetailsDelete => "bank_details.delete",
            Action::TwoFactorEnable => "two_factor.enable",
            Action::TwoFactorDisable => "two_factor.disable",
            Action::PasskeyAdd => "passkey.add",
            Action::PasskeySignIn => "passkey.sign_in",
            Action::PasskeyReauth => "passkey.reauth",
            Action::PasskeyRename => "passkey.rename",
            Action::PasskeyRemove => "passkey.remove",
            Action::PasskeyRefused => "passkey.refused",
            Action::ApiKeyCreate => "api_key.create",
            Action::ApiKeyRevoke => "api_key.revoke",
            Action::RecoveryCodesReplace => "two_factor.recovery_codes",
            Action::AccountDeletionSchedule => "account.deletion_schedule",
            Action::AccountDeletionCancel => "account.deletion_cancel",
            Action::AccountDeletionCarryOut => "account.delete",
            Action::DataExportRequest => "account.export_request",
            Action::DataExportDownload => "account.export_download",
            Action::AdminSettingsUpdate => "settings.update",
            Action::ImportStart => "import.start",
            Action::ImportConfirm => "import.confirm",
            Action::ImportCancel => "import.cancel",
            Action::ImportRemove => "import.remove_posts",
        }
    }
}

/// What an action was done to.
#[derive(Debug, Clone)]
pub struct Target {
    pub kind: &'static str,
    pub id: Option<String>,
    pub label: Option<String>,
}

impl Target {
    /// A target by kind and id, with a readable label.
    pub fn new(kind: &'static str, id: impl Into<String>, label: impl Into<String>) -> Self {
        Target {
            kind,
            id: Some(id.into()),
            label: Some(label.into()),
        }
    }

    /// A user, labelled by email.
    pub fn user(user: &User) -> Self {
        Target::new("user", user.id.to_hex(), user.email.clone())
    }

    /// A post, labelled by title.
    pub fn post(post: &Post) -> Self {
        Target::new("post", post.id.to_hex(), post.title.clone())
    }

    /// A thing known by id only.
    pub fn id(kind: &'static str, id: ObjectId) -> Self {
        Target {
            kind,
            id: Some(id.to_hex()),
            label: None,
        }
    }

    /// The site as a whole (exports, broadcasts, retries).
    pub fn site() -> Self {
        Target {
            kind: "site",
            id: None,
            label: None,
        }
    }
}

/// Which entries of the audit log to show (all when empty).
#[derive(Debug, Default)]
pub struct AuditFilter {
    pub action: Option<String>,
    pub actor: Option<ObjectId>,
    pub target: Option<String>,
}

/// An administrator action.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditView {
    #[serde(rename = "_id")]
    pub id: String,
    pub actor: AuditActor,
    pub action: String,
    pub target_type: String,
    pub target_id: Option<String>,
    pub target_label: Option<String>,
    /// What the action changed; its keys depend on the action.
    #[schema(value_type = Object)]
    pub details: Document,
    pub created_at: String,
}

/// The administrator who acted.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuditActor {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
}

fn view(e: &AuditEntry) -> AuditView {
    AuditView {
        id: e.id.to_hex(),
        actor: AuditActor {
            id: e.actor_id.to_hex(),
            name: e.actor_name.clone(),
            email: e.actor_email.clone(),
        },
        action: e.action.clone(),
        target_type: e.target_type.clone(),
        target_id: e.target_id.clone(),
        target_label: e.target_label.clone(),
        details: e.details.clone(),
        created_at: iso(e.created_at),
    }
}

/// One page of the audit log (newest first) as `filter` narrows it, and how many entries match.
pub async fn page(
    state: &AppState,
    filter: AuditFilter,
    skip: u64,
    limit: i64,
) -> crate::error::ApiResult<(Vec<AuditView>, u64)> {
    let mut query = Document::new();
    if let Some(action) = filter.action {
        query.insert("action", action);
    }
    if let Some(actor) = filter.actor {
        query.insert("actorId", actor);
    }
    if let Some(target) = filter.target {
        query.insert("targetId", target);
    }
    let (entries, total) = audit_log::page(&state.db, query, skip, limit).await?;
    Ok((entries.iter().map(view).collect(), total))
}

/// Records that `admin` did `action` to `target`. The action already happened, so a failure to
/// record is logged (at error level) rather than undoing it or failing the request.
pub async fn record(
    state: &AppState,
    admin: &AuthUser,
    action: Action,
    target: Target,
    details: Value,
) {
    record_by(state, &admin.user, action, target, details).await;
}

/// Records an administrator's act on something of `owner`'s (an owner acting on their own things
/// is not an administrator action, and is not recorded).
pub async fn record_for_other(
    state: &AppState,
    me: &AuthUser,
    owner: mongodb::bson::oid::ObjectId,
    action: Action,
    target: Target,
    details: Value,
) {
    if me.is_admin() && owner != me.user.id {
        record(state, me, action, target, details).await;
    }
}

/// Records that `actor` did `action` to `target`, for what a user does to their own account
/// outside a request of theirs (the deletion the job worker carries out) as well as in one.
pub async fn record_by(
    state: &AppState,
    actor: &User,
    action: Action,
    target: Target,
    details: Value,
) {
    let details = match mongodb::bson::to_document(&details) {
        Ok(d) => d,
        Err(_) => mongodb::bson::doc! { "value": details.to_string() },
    };
    let entry = AuditEntry {
        id: ObjectId::new(),
        actor_id: actor.id,
        actor_name: actor.name.clone(),
        actor_email: actor.email.clone(),
        action: action.as_str().to_string(),
        target_type: target.kind.to_string(),
        target_id: target.id,
        target_label: target.label,
        details,
        created_at: now(),
    };
    if let Err(e) = audit_log::insert(&state.db, &entry).await {
        tracing::error!(error = %e, action = action.as_str(), "could not record an administrator action");
    }
}

#[cfg(test)]
mod tests {
    /// The administrators' audit log filters by action: the web app's list
    /// (`AUDIT_ACTIONS`) names every action the server records.
    #[test]
    fn the_web_apps_filter_names_every_recorded_action() {
        let root = env!("CARGO_MANIFEST_DIR");
        let server = std::fs::read_to_string(format!("{root}/src/audit.rs")).unwrap();
        let web = std::fs::read_to_string(format!(
            "{root}/web/src/features/admin/sections/audit-section.tsx"
        ))
        .unwrap();
        let arm = regex::Regex::new(r#"Action::\w+ => "([a-z_.]+)""#).unwrap();
        let recorded: Vec<&str> = arm
            .captures_iter(&server)
            .map(|c| c.get(1).unwrap().as_str())
            .collect();
        assert!(
            recorded.len() > 40,
            "the actions are read from `Action::as_str`"
        );
        let missing: Vec<&&str> = recorded
            .iter()
            .filter(|a| !web.contains(&format!("'{a}'")))
            .collect();
        assert!(missing.is_empty(), "not in AUDIT_ACTIONS: {missing:?}");
    }
}
