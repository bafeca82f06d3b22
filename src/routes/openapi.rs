//! `GET /api/openapi.json`: the OpenAPI 3.1 document of every route. The route list below is kept
//! beside the route table in `mod.rs`; a test fails when a route is added there and not here.

use std::collections::BTreeMap;

use actix_web::HttpResponse;
use serde::Serialize;
use serde_json::{json, Value};

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone; a session is not read.
    Public,
    /// Anyone; a session, when sent, changes the answer.
    Optional,
    /// A signed-in user (401 without a session).
    User,
    /// An administrator (401 without a session, 403 for other users).
    Admin,
}

/// A route's JSON request body.
#[derive(Clone, Copy)]
pub enum Body {
    /// The route reads no body.
    None,
    /// A JSON object of the given type.
    Typed(fn() -> SchemaSet),
    /// A JSON object of the given type, or no body at all.
    Optional(fn() -> SchemaSet),
}

impl Body {
    /// The body's type, when it reads one.
    pub fn schema(self) -> Option<fn() -> SchemaSet> {
        match self {
            Body::None => None,
            Body::Typed(of) | Body::Optional(of) => Some(of),
        }
    }
}

/// A schema with the named schemas it refers to.
pub type SchemaSet = (Value, Vec<(String, Value)>);

/// One route of the table: what it reads, who may call it and how it answers.
#[derive(Clone, Copy)]
pub struct Route {
    pub method: &'static str,
    pub path: &'static str,
    pub access: Access,
    pub body: Body,
    pub query: Option<fn() -> Vec<Value>>,
    /// Answers 201 on success (otherwise 200).
    pub created: bool,
    /// Answers 202 on success: the work was queued to the job worker.
    pub accepted: bool,
    /// The type of a successful JSON answer, where the handler answers with one (otherwise the
    /// answer is documented as a JSON object, or by its media type).
    pub success: Option<fn() -> SchemaSet>,
}

const fn route(method: &'static str, path: &'static str, access: Access) -> Route {
    Route {
        method,
        path,
        access,
        body: Body::None,
        query: None,
        created: false,
        accepted: false,
        success: None,
    }
}

const fn get(path: &'static str, access: Access) -> Route {
    route("GET", path, access)
}

const fn post(path: &'static str, access: Access) -> Route {
    route("POST", path, access)
}

const fn patch(path: &'static str, access: Access) -> Route {
    route("PATCH", path, access)
}

const fn put(path: &'static str, access: Access) -> Route {
    route("PUT", path, access)
}

const fn delete(path: &'static str, access: Access) -> Route {
    route("DELETE", path, access)
}

impl Route {
    /// The route reads a JSON body.
    const fn with_body(self, body: Body) -> Self {
        Route { body, ..self }
    }

    /// The route reads query parameters.
    const fn with_query(self, query: fn() -> Vec<Value>) -> Self {
        Route {
            query: Some(query),
            ..self
        }
    }

    /// The route answers with a JSON body of this type on success.
    const fn returns(self, success: fn() -> SchemaSet) -> Self {
        Route {
            success: Some(success),
            ..self
        }
    }

    /// The route answers 201 on success.
    const fn creates(self) -> Self {
        Route {
            created: true,
            ..self
        }
    }

    /// The route answers 202 on success (queued to the job worker).
    const fn accepts(self) -> Self {
        Route {
            accepted: true,
            ..self
        }
    }
}

fn schema<T: utoipa::ToSchema>() -> SchemaSet {
    let mut refs = Vec::new();
    T::schemas(&mut refs);
    let refs = refs
        .into_iter()
        .map(|(name, s)| (name, serde_json::to_value(s).unwrap_or(Value::Null)))
        .collect();
    (
        serde_json::to_value(T::schema()).unwrap_or(Value::Null),
        refs,
    )
}

fn params<T: utoipa::IntoParams>() -> Vec<Value> {
    T::into_params(|| Some(utoipa::openapi::path::ParameterIn::Query))
        .into_iter()
        .filter_map(|p| serde_json::to_value(p).ok())
        .collect()
}

/// Query parameters of a type that also reads the page parameters (flattened into it).
fn paged<T: utoipa::IntoParams>() -> Vec<Value> {
    let mut out = params::<T>();
    out.extend(params::<crate::routes::admin::PageParams>());
    out
}

use super::{
    achievement, admin, answers, auth, banner, block, category, comment, daily_mail, earning,
    follow, health, newsletter, notification, payment, post, public, public_config, subscription,
    user,
};
use Access::{Admin, Optional, Public, User};

/// Every route the server answers, as registered in [`super::configure`].
#[rustfmt::skip]
pub const ROUTES: &[Route] = &[
    get("/health", Public).returns(schema::<health::HealthAnswer>),
    get("/metrics", Public),
    get("/api/follow/follower-locations", User).with_query(params::<follow::follower_locations::FollowerLocationsQuery>).returns(schema::<follow::follower_locations::FollowerLocationsAnswer>),
    post("/api/auth/signup", Public).with_body(Body::Typed(schema::<auth::signup::SignupBody>)).creates().returns(schema::<auth::SessionBody>),
    post("/api/auth/login", Public).with_body(Body::Typed(schema::<auth::login::LoginBody>)).returns(schema::<auth::two_factor::LoginAnswer>),
    post("/api/auth/google-login", Public).with_body(Body::Typed(schema::<auth::google_login::GoogleLoginBody>)).creates().returns(schema::<auth::two_factor::GoogleLoginAnswer>),
    post("/api/auth/send-verify-otp", User).with_body(Body::Typed(schema::<auth::send_verify_otp::SendVerifyBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/verify-email", Public).with_body(Body::Typed(schema::<auth::verify_email::VerifyEmailBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/send-reset-otp", Public).with_body(Body::Typed(schema::<auth::send_reset_otp::SendResetBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/verify-reset-otp", Public).with_body(Body::Typed(schema::<auth::verify_reset_otp::VerifyResetBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/reset-password", Public).with_body(Body::Typed(schema::<auth::reset_password::ResetPasswordBody>)).returns(schema::<answers::MessageAnswer>),
    get("/api/auth/check", User).returns(schema::<auth::check::CheckBody>),
    post("/api/auth/logout", Public).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/logout-all", User).returns(schema::<answers::MessageAnswer>),
    get("/api/auth/sessions", User).returns(schema::<auth::sessions::SessionsAnswer>),
    delete("/api/auth/sessions/{id}", User).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/reauth", User).with_body(Body::Typed(schema::<auth::reauth::ReauthBody>)).returns(schema::<auth::reauth::ReauthAnswer>),
    get("/api/auth/2fa", User).returns(schema::<auth::two_factor::StatusAnswer>),
    post("/api/auth/2fa/setup", User).returns(schema::<auth::two_factor::SetupAnswer>),
    post("/api/auth/2fa/enable", User).with_body(Body::Typed(schema::<auth::two_factor::CodeBody>)).returns(schema::<auth::two_factor::RecoveryCodesAnswer>),
    post("/api/auth/2fa/disable", User).with_body(Body::Typed(schema::<auth::two_factor::PasswordCodeBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/2fa/recovery-codes", User).with_body(Body::Typed(schema::<auth::two_factor::PasswordCodeBody>)).returns(schema::<auth::two_factor::RecoveryCodesAnswer>),
    post("/api/auth/2fa/verify", Public).with_body(Body::Typed(schema::<auth::two_factor::VerifyBody>)).returns(schema::<auth::SessionBody>),
    post("/api/auth/change-password", User).with_body(Body::Typed(schema::<auth::change_password::ChangePasswordBody>)).returns(schema::<auth::change_password::PasswordChangedAnswer>),
    get("/api/user/get-user", User).returns(schema::<user::OwnUserAnswer>),
    patch("/api/user/update-user", User).with_body(Body::Typed(schema::<user::update_user::UpdateUserBody>)).returns(schema::<user::OwnUserAnswer>),
    get("/api/user/get-single-user/{id}", Optional).returns(schema::<user::get_single_user::ProfileAnswer>),
    post("/api/user/export", User).accepts().returns(schema::<user::export::ExportStartedAnswer>),
    get("/api/user/export", User).returns(schema::<user::export::ExportsAnswer>),
    get("/api/user/export/{id}/download", User).with_query(params::<user::export::DownloadQuery>),
    post("/api/user/delete-account", User).with_body(Body::Typed(schema::<user::delete_account::DeleteAccountBody>)).returns(schema::<user::delete_account::DeletionScheduledAnswer>),
    post("/api/user/consent", User).with_body(Body::Typed(schema::<user::consent::ConsentBody>)).returns(schema::<user::consent::ConsentAnswer>),
    get("/api/user/online", Public).returns(schema::<user::online::OnlineAnswer>),
    get("/api/user/ip-location", Optional).returns(schema::<user::ip_location::IpLocationAnswer>),
    post("/api/user/track-ip-location", User).returns(schema::<user::locations::LocationAnswer>),
    post("/api/user/save-location", User).with_body(Body::Typed(schema::<user::save_location::SaveLocationBody>)).returns(schema::<user::locations::LocationAnswer>),
    get("/api/user/locations", Admin).with_query(params::<notification::PageQuery>).returns(schema::<user::locations::LocationsAnswer>),
    get("/api/user/feedback/check", User).returns(schema::<user::feedback_check::FeedbackCheckAnswer>),
    post("/api/user/feedback/submit", User).with_body(Body::Typed(schema::<user::feedback_submit::SubmitBody>)).creates().returns(schema::<user::feedback_submit::FeedbackSubmitAnswer>),
    get("/api/user/feedback/all", Admin).with_query(params::<notification::PageQuery>).returns(schema::<user::feedback_all::FeedbacksAnswer>),
    post("/api/user/feedback/manual/{userId}", Admin).returns(schema::<user::feedback_manual::PromptAnswer>),
    delete("/api/user/activity/clear", User).returns(schema::<answers::DeletedAnswer>),
    delete("/api/user/activity/clear-old", User).returns(schema::<answers::DeletedAnswer>),
    get("/api/user/activity/{id}", User).with_query(params::<user::activity::ActivityQuery>).returns(schema::<user::activity::ActivityAnswer>),
    get("/api/user/get-all-user", Admin).with_query(paged::<admin::ListParams>).returns(schema::<admin::users::list::UsersAnswer>),
    delete("/api/user/delete-user", Admin).with_body(Body::Typed(schema::<admin::users::delete::DeleteUserBody>)).returns(schema::<admin::users::delete::UserDeleted>),
    patch("/api/user/toggle-block/{id}", Admin).returns(schema::<admin::users::AdminUserAnswer>),
    patch("/api/user/toggle-role/{id}", Admin).returns(schema::<admin::users::AdminUserAnswer>),
    post("/api/category", User).with_body(Body::Typed(schema::<category::create::CreateCategoryBody>)).creates().returns(schema::<category::CategoryAnswer>),
    post("/api/category/", User).with_body(Body::Typed(schema::<category::create::CreateCategoryBody>)).creates().returns(schema::<category::CategoryAnswer>),
    get("/api/category/all-category", Public).returns(schema::<category::CategoriesAnswer>),
    get("/api/category/user-selected", User).returns(schema::<category::CategoriesAnswer>),
    get("/api/category/check-slug", Public).with_query(params::<category::check_slug::CheckSlugQuery>).returns(schema::<category::check_slug::SlugAnswer>),
    post("/api/category/seed", Admin).returns(schema::<category::seed::SeedAnswer>),
    post("/api/category/users/{userId}/categories", User).with_body(Body::Typed(schema::<category::assign::AssignBody>)).returns(schema::<category::CategoriesAnswer>),
    patch("/api/category/{id}", User).with_body(Body::Typed(schema::<category::update::UpdateCategoryBody>)).returns(schema::<category::CategoryAnswer>),
    delete("/api/category/{id}", User).returns(schema::<category::delete::CategoryDeletedAnswer>),
    post("/api/post/post-create", User).with_body(Body::Typed(schema::<post::input::PostBody>)).creates().returns(schema::<post::PostAnswer>),
    patch("/api/post/update/{slug}", User).with_body(Body::Typed(schema::<post::input::PostBody>)).returns(schema::<post::update::PostUpdatedAnswer>),
    delete("/api/post/delete/{postId}", User).returns(schema::<post::delete::PostDeletedAnswer>),
    post("/api/post/appeal/{postId}", User).with_body(Body::Typed(schema::<post::appeal::AppealBody>)).creates().returns(schema::<post::appeal::AppealAnswer>),
    get("/api/post/public/posts", Optional).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    get("/api/post/public/{slug}", Optional).returns(schema::<post::PostAnswer>),
    get("/api/post/latest-post/latest", Optional).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    get("/api/post/trending-post/trending", Optional).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    get("/api/post/search-post/search", Optional).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    get("/api/post/search-users", Optional).with_query(params::<post::search_users::SearchUsersQuery>).returns(schema::<post::search_users::UserHitsAnswer>),
    get("/api/post/all-post", Optional).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    get("/api/post/following", Optional).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    get("/api/post/user/{userId}/posts", Optional).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    get("/api/post/count/all", Optional).returns(schema::<answers::CountAnswer>),
    get("/api/post/count/my", Optional).returns(schema::<answers::CountAnswer>),
    get("/api/post/count/following", Optional).returns(schema::<answers::CountAnswer>),
    post("/api/post/like/{postId}", User).returns(schema::<post::like::LikeAnswer>),
    post("/api/post/bookmark/{postId}", User).returns(schema::<post::bookmark::BookmarkAnswer>),
    get("/api/post/bookmark-status/{postId}", User).returns(schema::<post::bookmark_status::MarksAnswer>),
    get("/api/post/get-post/bookmarks", User).returns(schema::<post::PostsAnswer>),
    post("/api/post/view/{slug}", Optional).returns(schema::<post::view::ViewsAnswer>),
    post("/api/post/time-spent/{postId}", Optional).returns(schema::<post::time_spent::TimeSpentAnswer>),
    post("/api/post/vote", User).with_body(Body::Typed(schema::<post::vote::VoteBody>)).returns(schema::<post::vote::VoteAnswer>),
    get("/api/post/suggested-post/suggested", Optional).with_query(params::<post::suggested::SuggestedQuery>).returns(schema::<post::PostsAnswer>),
    get("/api/post/analytics/post/{id}", User).with_query(params::<post::analytics_post::AnalyticsQuery>).returns(schema::<post::analytics_post::PostAnalyticsAnswer>),
    get("/api/post/analytics/user-engagement", User).with_query(params::<post::analytics_user::EngagementQuery>).returns(schema::<post::analytics_user::EngagementAnswer>),
    post("/api/post/{postId}/share", Optional).returns(schema::<post::share::ShareAnswer>),
    get("/api/post/{slug}", Optional).returns(schema::<post::PostAnswer>),
    get("/api/public/posts", Optional).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    get("/api/public/post/{slug}", Optional).returns(schema::<post::PostAnswer>),
    get("/api/public/search-posts", Public).with_query(params::<post::ListQuery>).returns(schema::<post::ListAnswer>),
    post("/api/public/guest/visit", Public).returns(schema::<public::guest_visit::GuestAnswer>),
    post("/api/public/post/{slug}/view", Optional).returns(schema::<public::view::ViewTrackedAnswer>),
    post("/api/comment/add-comment/{postId}", User).with_body(Body::Typed(schema::<comment::add::AddCommentBody>)).creates().returns(schema::<comment::CommentAnswer>),
    get("/api/comment/all-comments/{postId}", Optional).returns(schema::<comment::all::CommentsAnswer>),
    post("/api/comment/reaction/{commentId}", User).with_body(Body::Typed(schema::<comment::reaction::ReactionBody>)).returns(schema::<comment::reaction::ReactionAnswer>),
    put("/api/comment/edit/{commentId}", User).with_body(Body::Typed(schema::<comment::edit::EditBody>)).returns(schema::<comment::CommentAnswer>),
    put("/api/comment/block/{commentId}", User).returns(schema::<comment::CommentAnswer>),
    delete("/api/comment/delete/{commentId}", User).returns(schema::<comment::delete::CommentDeletedAnswer>),
    post("/api/follow/unfollow/{userId}", User).returns(schema::<follow::FollowAnswer>),
    get("/api/follow/followers", User).with_query(params::<follow::list::FollowQuery>).returns(schema::<follow::list::FollowListAnswer>),
    get("/api/follow/following", User).with_query(params::<follow::list::FollowQuery>).returns(schema::<follow::list::FollowListAnswer>),
    get("/api/follow/status/{userId}", User).returns(schema::<follow::status::FollowStatusAnswer>),
    put("/api/follow/alerts/{authorId}", User).with_body(Body::Typed(schema::<follow::alerts::AlertsBody>)).returns(schema::<follow::alerts::AlertsAnswer>),
    post("/api/follow/{userId}", User).returns(schema::<follow::FollowAnswer>),
    post("/api/block/block-user/{id}", User).returns(schema::<block::BlockAnswer>),
    post("/api/block/unblock", User).with_body(Body::Typed(schema::<block::unblock::UnblockBody>)).returns(schema::<block::BlockAnswer>),
    get("/api/block/list", User).returns(schema::<block::list::BlockedAnswer>),
    get("/api/achievement/achievements", User).with_query(params::<achievement::achievements::AchievementsQuery>).returns(schema::<achievement::achievements::AchievementsAnswer>),
    post("/api/achievement/achievements/calculate", User).returns(schema::<achievement::calculate::CalculatedAnswer>),
    get("/api/admin/subscriptions/plans", Admin).with_query(paged::<admin::subscriptions::plans::PlanQuery>).returns(schema::<admin::subscriptions::plans::AllPlansAnswer>),
    post("/api/admin/subscriptions/eligibility/toggle", Admin).with_body(Body::Typed(schema::<admin::subscriptions::eligibility::ToggleBody>)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    patch("/api/admin/subscriptions/criteria", Admin).with_body(Body::Typed(schema::<admin::subscriptions::criteria::CriteriaBody>)).returns(schema::<admin::subscriptions::criteria::CriteriaAnswer>),
    get("/api/admin/subscriptions/eligibility/{userId}", Admin).returns(schema::<crate::billing::eligibility::EligibilityView>),
    patch("/api/admin/subscriptions/plan/status", Admin).with_body(Body::Typed(schema::<admin::subscriptions::plans::PlanStatusBody>)).returns(schema::<subscription::PlanAnswer>),
    post("/api/admin/subscriptions/grant", Admin).with_body(Body::Typed(schema::<admin::subscriptions::eligibility::GrantBody>)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    patch("/api/admin/subscriptions/user-override/{userId}", Admin).with_body(Body::Typed(schema::<admin::subscriptions::eligibility::OverrideBody>)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    patch("/api/admin/subscriptions/user-milestone/{userId}", Admin).with_body(Body::Typed(schema::<admin::subscriptions::milestones::MilestoneBody>)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    patch("/api/admin/subscriptions/user-milestone-reset/{userId}", Admin).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    get("/api/admin/users", Admin).with_query(paged::<admin::ListParams>).returns(schema::<admin::users::list::UsersAnswer>),
    patch("/api/admin/users/block/{id}", Admin).returns(schema::<admin::users::AdminUserAnswer>),
    patch("/api/admin/users/role/{id}", Admin).returns(schema::<admin::users::AdminUserAnswer>),
    delete("/api/admin/users/{id}", Admin).returns(schema::<admin::users::delete::UserDeleted>),
    get("/api/admin/posts", Admin).with_query(paged::<admin::ListParams>).returns(schema::<admin::posts::list::AdminPostsAnswer>),
    patch("/api/admin/posts/block/{id}", Admin).returns(schema::<admin::block_post::PostBlockAnswer>),
    delete("/api/admin/posts/{id}", Admin).returns(schema::<post::delete::PostDeletedAnswer>),
    get("/api/admin/audit-log", Admin).with_query(paged::<admin::audit_log::AuditQuery>).returns(schema::<admin::audit_log::AuditAnswer>),
    get("/api/admin/settings", Admin).returns(schema::<admin::settings::SettingsAnswer>),
    patch("/api/admin/settings", Admin).with_body(Body::Typed(schema::<admin::settings::SettingsBody>)).returns(schema::<admin::settings::SettingsUpdatedAnswer>),
    get("/api/admin/overview", Admin).returns(schema::<admin::overview::Overview>),
    post("/api/admin/contact", Optional).with_body(Body::Typed(schema::<admin::contact::create::ContactBody>)).creates().returns(schema::<admin::contact::create::ContactSent>),
    get("/api/admin/contact-messages", Admin).with_query(params::<admin::PageParams>).returns(schema::<admin::contact::list::ContactMessages>),
    patch("/api/admin/contact-messages/{id}/handled", Admin).returns(schema::<admin::contact::ContactAnswer>),
    post("/api/admin/reply-contact/{id}", Admin).with_body(Body::Typed(schema::<admin::contact::reply::ReplyBody>)).returns(schema::<admin::contact::ContactAnswer>),
    post("/api/admin/reports", User).with_body(Body::Typed(schema::<admin::reports::create::ReportBody>)).creates().returns(schema::<admin::reports::ReportAnswer>),
    get("/api/admin/reports", Admin).with_query(params::<admin::PageParams>).returns(schema::<admin::reports::list::ReportsAnswer>),
    patch("/api/admin/reports/{id}", Admin).with_body(Body::Optional(schema::<admin::reports::review::ReviewBody>)).returns(schema::<admin::reports::review::ReviewAnswer>),
    get("/api/admin/reports/{id}", User).returns(schema::<admin::reports::get::ReportDetail>),
    post("/api/admin/replies/send-notification", Admin).with_body(Body::Typed(schema::<admin::reports::send_notification::NoticeBody>)).returns(schema::<admin::reports::send_notification::NoticeAnswer>),
    post("/api/admin/acknowledge-report/{id}", User).returns(schema::<admin::reports::ReportAnswer>),
    get("/api/admin/analytics", Admin).with_query(params::<admin::analytics::AnalyticsQuery>).returns(schema::<admin::analytics::AnalyticsAnswer>),
    get("/api/admin/download-csv", Admin).creates(),
    get("/api/admin/email-status", Admin).with_query(paged::<admin::email::statuses::StatusQuery>).returns(schema::<admin::email::statuses::AddressLogs>),
    get("/api/admin/all-email-statuses", Admin).with_query(paged::<admin::email::statuses::StatusQuery>).returns(schema::<admin::email::statuses::EmailLogs>),
    post("/api/admin/retry-failed-emails", Admin).with_body(Body::Typed(schema::<admin::email::retry::RetryBody>)).accepts().returns(schema::<admin::email::retry::RetryQueued>),
    get("/api/admin/jobs/{id}", Admin).returns(schema::<admin::jobs::JobAnswer>),
    post("/api/admin/reading-time", Admin).with_body(Body::Typed(schema::<admin::reading_time::ReadingTimeBody>)).returns(schema::<admin::reading_time::ReadingTimeAnswer>),
    get("/api/admin/reading-details/{postId}", Admin).returns(schema::<admin::reading_details::ReadingDetails>),
    get("/api/notification/notifications", Optional).with_query(params::<notification::list::ListQuery>).returns(schema::<notification::list::NotificationPageAnswer>),
    get("/api/notification/unread-count", Optional).returns(schema::<answers::CountAnswer>),
    patch("/api/notification/mark-as-read/{id}", Optional).returns(schema::<notification::NotificationAnswer>),
    patch("/api/notification/mark-as-read", Optional),
    patch("/api/notification/mark-as-read/", Optional),
    patch("/api/notification/mark-all-as-read", Optional).returns(schema::<notification::mark_all_read::AllReadAnswer>),
    post("/api/notification/admin", Admin).with_body(Body::Typed(schema::<notification::admin::AdminNoticeBody>)).creates().returns(schema::<notification::NotificationSentAnswer>),
    post("/api/notification/broadcast", Admin).with_body(Body::Typed(schema::<notification::broadcast::BroadcastBody>)).accepts().returns(schema::<notification::broadcast::BroadcastAnswer>),
    post("/api/notification/reply", Optional).with_body(Body::Typed(schema::<notification::reply::ReplyBody>)).creates().returns(schema::<notification::NotificationAnswer>),
    get("/api/notification/user/{userId}", Admin).returns(schema::<notification::NotificationsAnswer>),
    get("/api/notification/user", Admin),
    get("/api/notification/user/", Admin),
    delete("/api/notification", Optional),
    delete("/api/notification/", Optional),
    delete("/api/notification/{id}", Optional).returns(schema::<notification::delete::NoticeDeletedAnswer>),
    get("/api/bannerNotification/get-Notification", Optional).with_query(params::<banner::get_notifications::BannerQuery>).returns(schema::<banner::BannersAnswer>),
    get("/api/bannerNotification/dismissed/{id}", User).returns(schema::<banner::dismissed::DismissedAnswer>),
    post("/api/bannerNotification/create", Admin).with_body(Body::Typed(schema::<banner::create::CreateBody>)).creates().returns(schema::<banner::create::BannerCreatedAnswer>),
    patch("/api/bannerNotification/dismiss/{id}", User).returns(schema::<banner::BannerIdAnswer>),
    patch("/api/bannerNotification/deactivate/{id}", Admin).returns(schema::<banner::deactivate::BannerDeactivatedAnswer>),
    delete("/api/bannerNotification/delete-all", Admin).returns(schema::<answers::DeletedAnswer>),
    get("/api/dailyMail/daily-post-report", Admin).with_query(paged::<daily_mail::report::ReportQuery>).returns(schema::<daily_mail::report::MailReportAnswer>),
    get("/api/dailyMail/unsubscribe", Public).with_query(params::<daily_mail::unsubscribe::UnsubscribeQuery>),
    post("/api/dailyMail/unsubscribe", Public).with_query(params::<daily_mail::unsubscribe::UnsubscribeQuery>),
    post("/api/newsletter/{authorId}/subscribe", Public).with_body(Body::Typed(schema::<newsletter::SubscribeBody>)).returns(schema::<newsletter::SubscribeAnswer>),
    get("/api/newsletter/confirm", Public).with_query(params::<newsletter::TokenQuery>),
    post("/api/newsletter/confirm", Public).with_query(params::<newsletter::TokenQuery>),
    get("/api/newsletter/unsubscribe", Public).with_query(params::<newsletter::TokenQuery>),
    post("/api/newsletter/unsubscribe", Public).with_query(params::<newsletter::TokenQuery>),
    get("/api/admin/email-suppressions", Admin).with_query(params::<newsletter::SuppressionQuery>).returns(schema::<newsletter::SuppressionListAnswer>),
    get("/api/post/delivery/{id}", User).returns(schema::<post::delivery::DeliveryAnswer>),
    post("/api/subscription/plans", User).with_body(Body::Typed(schema::<subscription::plans::PlanBody>)).creates().returns(schema::<subscription::PlanAnswer>),
    get("/api/subscription/plans/author/{authorId}", Optional).returns(schema::<subscription::PlansAnswer>),
    patch("/api/subscription/plans/{id}", User).with_body(Body::Typed(schema::<subscription::plans::PlanChangeBody>)).creates().returns(schema::<subscription::PlanAnswer>),
    delete("/api/subscription/plans/{id}", User).creates().returns(schema::<subscription::PlanAnswer>),
    post("/api/subscription/plans/{id}/activate", User).creates().returns(schema::<subscription::PlanAnswer>),
    get("/api/subscription/plans/{id}/analytics", User).returns(schema::<subscription::analytics::PlanAnalytics>),
    // The handler reads the bearer token itself, to answer 401 'Missing authentication token'.
    post("/api/subscription/subscribe", User).with_body(Body::Typed(schema::<subscription::subscribe::SubscribeBody>)).creates().returns(schema::<subscription::subscribe::SubscribeAnswer>),
    patch("/api/subscription/subscriptions/{id}/cancel", User).returns(schema::<subscription::SubscriptionAnswer>),
    patch("/api/subscription/subscriptions/{id}/refund", User).with_body(Body::Typed(schema::<subscription::refund::RefundBody>)).returns(schema::<subscription::refund::RefundAnswer>),
    post("/api/subscription/status", User).with_body(Body::Typed(schema::<subscription::ReaderAuthorBody>)).returns(schema::<subscription::status::StatusAnswer>),
    post("/api/subscription/reminders", Admin).returns(schema::<subscription::reminders::RemindersAnswer>),
    get("/api/subscription/my-plans", User).with_query(params::<subscription::lists::ListSwitches>).returns(schema::<subscription::OwnPlansAnswer>),
    post("/api/subscription/unsubscribe/author", User).with_body(Body::Typed(schema::<subscription::ReaderAuthorBody>)).returns(schema::<subscription::unsubscribe_author::UnsubscribeAnswer>),
    get("/api/subscription/author/{authorId}/subscriptions", User).returns(schema::<subscription::lists::SubscriptionsAnswer>),
    get("/api/subscription/my-subscriptions", User).with_query(params::<subscription::lists::ListSwitches>).returns(schema::<subscription::lists::MySubscriptionsAnswer>),
    get("/api/subscription/private-feed/{authorId}", User).returns(schema::<subscription::private_feed::PrivateFeedAnswer>),
    delete("/api/subscription/private-feed/{authorId}", User).returns(schema::<answers::MessageAnswer>),
    post("/api/subscription/private-feed/{authorId}/reset", User).returns(schema::<subscription::private_feed::PrivateFeedAnswer>),
    get("/api/subscription/check-eligibility", User).returns(schema::<crate::billing::eligibility::EligibilityView>),
    get("/api/earning/admin/earnings", Admin).with_query(params::<admin::PageParams>).returns(schema::<earning::earnings::EarningsAnswer>),
    post("/api/earning/admin/payouts", Admin).with_body(Body::Typed(schema::<earning::payouts::PayoutsBody>)).returns(schema::<earning::payouts::PayoutsAnswer>),
    get("/api/earning/my-earnings", User).with_query(params::<admin::PageParams>).returns(schema::<earning::my_earnings::MyEarningsAnswer>),
    post("/api/payment/bank-details", User).with_body(Body::Typed(schema::<payment::bank_details::BankDetailsBody>)).creates().returns(schema::<payment::bank_details::BankDetailsAnswer>),
    get("/api/payment/bank-details", User).with_query(params::<payment::bank_details::UserQuery>).creates().returns(schema::<payment::bank_details::BankDetailsFetched>),
    patch("/api/payment/bank-details/{id}", User).with_body(Body::Typed(schema::<payment::bank_details::BankDetailsChangeBody>)).creates().returns(schema::<payment::bank_details::BankDetailsAnswer>),
    delete("/api/payment/bank-details/{id}", User).creates().returns(schema::<payment::bank_details::BankDetailsRemoved>),
    post("/api/payment/webhook", Public).returns(schema::<payment::webhook::WebhookAnswer>),
    get("/api/geojson/india-border", Public),
    get("/api/geojson/world", Public),
    get("/api/config/public", Public).returns(schema::<public_config::PublicConfigAnswer>),
    get("/media/{name}", Public),
    get("/api/openapi.json", Public).returns(schema::<ApiDocument>),
];

/// Whether a concrete path fits a route pattern (`{name}` stands for one non-empty segment).
pub fn path_matches(pattern: &str, path: &str) -> bool {
    let (mut a, mut b) = (pattern.split('/'), path.split('/'));
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(p), Some(s)) if p.starts_with('{') && !s.is_empty() => {}
            (Some(p), Some(s)) if p == s => {}
            _ => return false,
        }
    }
}

/// The methods the table routes for a concrete path (empty when the path is unknown). Where
/// patterns overlap (`/api/category/seed` and `/api/category/{id}`), the one with the most literal
/// segments names the path.
pub fn methods_for(path: &str) -> Vec<&'static str> {
    let literal = |pattern: &str| pattern.split('/').filter(|s| !s.starts_with('{')).count();
    let matching: Vec<&Route> = ROUTES
        .iter()
        .filter(|r| path_matches(r.path, path))
        .collect();
    let best = matching.iter().map(|r| literal(r.path)).max().unwrap_or(0);
    let mut methods: Vec<&'static str> = matching
        .iter()
        .filter(|r| literal(r.path) == best)
        .map(|r| r.method)
        .collect();
    methods.sort_unstable();
    methods.dedup();
    methods
}

fn tag(path: &str) -> &str {
    let rest = path
        .strip_prefix("/api/")
        .unwrap_or(path.trim_start_matches('/'));
    rest.split('/').next().unwrap_or("")
}

fn parameters(path: &str) -> Vec<Value> {
    path.split('/')
        .filter_map(|seg| seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } }))
        .collect()
}

/// The media type and schema of a route's successful answer.
fn success_content(path: &str) -> Value {
    match path {
        "/media/{name}" => {
            json!({ "image/*": { "schema": { "type": "string", "format": "binary" } } })
        }
        "/api/admin/download-csv" => {
            json!({ (crate::routes::admin::export::CONTENT_TYPE): { "schema": { "type": "string", "format": "binary" } } })
        }
        "/api/user/export/{id}/download" => {
            json!({ "application/zip": { "schema": { "type": "string", "format": "binary" } } })
        }
        "/api/geojson/india-border" | "/api/geojson/world" => {
            json!({ "application/geo+json": { "schema": { "type": "object" } } })
        }
        "/api/dailyMail/unsubscribe"
        | "/api/newsletter/confirm"
        | "/api/newsletter/unsubscribe" => {
            json!({ "text/html": { "schema": { "type": "string" } } })
        }
        // Prometheus text format; loopback, `metrics.trusted` and `metrics.token` only (else 404).
        "/metrics" => json!({ "text/plain": { "schema": { "type": "string" } } }),
        _ => json!({ "application/json": { "schema": { "type": "object" } } }),
    }
}

/// The error statuses a route can answer, each with the error body.
fn error_statuses(route: &Route) -> Vec<&'static str> {
    let mut codes = vec![
        "400", "401", "403", "404", "405", "409", "413", "429", "503",
    ];
    let tag = tag(route.path);
    if matches!(tag, "subscription" | "payment" | "earning" | "admin") {
        codes.extend(["402", "502"]);
    }
    codes
}

/// Declared links for the stateful phase: what a creation answers feeds the routes of its object.
fn links(route: &Route) -> Option<Value> {
    let (param, pointer, targets): (&str, &str, &[(&str, &str)]) = match (route.method, route.path)
    {
        ("POST", "/api/category") => (
            "id",
            "/category/_id",
            &[
                ("PATCH", "/api/category/{id}"),
                ("DELETE", "/api/category/{id}"),
            ],
        ),
        ("POST", "/api/comment/add-comment/{postId}") => (
            "commentId",
            "/comment/_id",
            &[
                ("PUT", "/api/comment/edit/{commentId}"),
                ("POST", "/api/comment/reaction/{commentId}"),
                ("DELETE", "/api/comment/delete/{commentId}"),
            ],
        ),
        ("POST", "/api/post/post-create") => (
            "postId",
            "/post/_id",
            &[
                ("POST", "/api/post/like/{postId}"),
                ("POST", "/api/post/bookmark/{postId}"),
                ("POST", "/api/comment/add-comment/{postId}"),
                ("DELETE", "/api/post/delete/{postId}"),
            ],
        ),
        ("POST", "/api/payment/bank-details") => (
            "id",
            "/bankDetails/_id",
            &[
                ("PATCH", "/api/payment/bank-details/{id}"),
                ("DELETE", "/api/payment/bank-details/{id}"),
            ],
        ),
        ("POST", "/api/subscription/plans") => (
            "id",
            "/plan/_id",
            &[
                ("PATCH", "/api/subscription/plans/{id}"),
                ("POST", "/api/subscription/plans/{id}/activate"),
                ("GET", "/api/subscription/plans/{id}/analytics"),
                ("DELETE", "/api/subscription/plans/{id}"),
            ],
        ),
        _ => return None,
    };
    let mut out = serde_json::Map::new();
    for (method, path) in targets {
        out.insert(
            format!(
                "{}{}",
                method.to_lowercase(),
                path.replace(['/', '{', '}'], "_")
            ),
            json!({
                "operationId": operation_id(method, path),
                "parameters": { param: format!("$response.body#{pointer}") }
            }),
        );
    }
    Some(Value::Object(out))
}

fn operation_id(method: &str, path: &str) -> String {
    format!("{method} {path}")
}

/// The document's `info`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ApiInfo {
    pub title: &'static str,
    pub version: &'static str,
}

/// The OpenAPI 3.1 document as served.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ApiDocument {
    pub openapi: &'static str,
    pub info: ApiInfo,
    /// Each path with its operations (OpenAPI Path Item objects, as the specification defines).
    #[schema(value_type = Object)]
    pub paths: BTreeMap<String, serde_json::Map<String, Value>>,
    /// The security schemes and the named schemas (an OpenAPI Components object).
    #[schema(value_type = Object)]
    pub components: Value,
}

/// The document as JSON.
pub fn document() -> Value {
    serde_json::to_value(api_document()).unwrap_or(Value::Null)
}

/// Builds the document from [`ROUTES`] and the request types they name.
pub fn api_document() -> ApiDocument {
    let mut paths: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
    let mut schemas = serde_json::Map::new();
    schemas.insert("Error".into(), error_schema());
    for route in ROUTES {
        let key = if route.path.len() > 1 {
            route.path.trim_end_matches('/')
        } else {
            route.path
        };
        let key = if key.is_empty() { "/" } else { key };
        let mut parameters = parameters(route.path);
        if let Some(query) = route.query {
            parameters.extend(query());
        }
        let mut responses = serde_json::Map::new();
        let content = match route.success {
            Some(of) => {
                let (schema, refs) = of();
                schemas.extend(refs);
                json!({ "application/json": { "schema": schema } })
            }
            None => success_content(route.path),
        };
        let mut ok = json!({ "description": "Success", "content": content.clone() });
        if let Some(links) = links(route) {
            ok["links"] = links;
        }
        if route.created {
            responses.insert("201".into(), ok.clone());
        }
        if route.accepted {
            responses.insert("202".into(), ok.clone());
        }
        if route.path == "/api/subscription/subscribe" {
            // A payment the provider must still confirm (the client finishes it with its secret).
            responses.insert("202".into(), ok.clone());
        }
        responses.insert("200".into(), ok);
        for code in error_statuses(route) {
            responses.insert(
                code.into(),
                json!({ "description": "Error", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }),
            );
        }
        if route.method == "GET" && crate::guest_cache::validates(route.path) {
            // `If-None-Match` naming the answer's `ETag`.
            responses.insert(
                "304".into(),
                json!({ "description": "Not modified: the answer is the one the request's If-None-Match names" }),
            );
        }
        if route.path == "/health" {
            // The database away: the same report, with `"db": "down"`.
            responses.insert(
                "503".into(),
                json!({ "description": "The database is unreachable", "content": content }),
            );
        }
        if matches!(
            route.path,
            "/api/dailyMail/unsubscribe"
                | "/api/newsletter/confirm"
                | "/api/newsletter/unsubscribe"
        ) {
            // A person follows this link from an email: a bad link gets a page, not JSON.
            responses.insert(
                "400".into(),
                json!({ "description": "The link is not valid", "content": { "text/html": { "schema": { "type": "string" } } } }),
            );
        }
        let mut operation = json!({
            "operationId": operation_id(route.method, route.path),
            "tags": [tag(route.path)],
            "parameters": parameters,
            "responses": responses,
        });
        match route.access {
            Access::Public => {}
            Access::Optional => {
                operation["security"] = json!([{}, { "bearer": [] }, { "cookie": [] }]);
            }
            Access::User | Access::Admin => {
                operation["security"] = json!([{ "bearer": [] }, { "cookie": [] }]);
            }
        }
        if let Some(of) = route.body.schema() {
            let (schema, refs) = of();
            for (name, s) in refs {
                schemas.insert(name, s);
            }
            operation["requestBody"] = json!({
                "required": matches!(route.body, Body::Typed(_)),
                "content": { "application/json": { "schema": schema } }
            });
        }
        paths
            .entry(key.to_string())
            .or_default()
            .entry(route.method.to_lowercase())
            .or_insert(operation);
    }
    ApiDocument {
        openapi: "3.1.0",
        info: ApiInfo {
            title: "Pressroom API",
            version: env!("CARGO_PKG_VERSION"),
        },
        paths,
        components: json!({
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "cookie": { "type": "apiKey", "in": "cookie", "name": "jwt" }
            },
            "schemas": schemas
        }),
    }
}

fn error_schema() -> Value {
    serde_json::to_value(<crate::error::ErrorBody as utoipa::PartialSchema>::schema())
        .unwrap_or(Value::Null)
}

/// Where the API viewer is served: Swagger UI from the built web app's `api-docs` folder (its
/// files come from the `swagger-ui-dist` package at build time; nothing is fetched from elsewhere).
pub const VIEWER_PATH: &str = "/api/docs";

/// Mounts the viewer at [`VIEWER_PATH`] when the web app is built; before that the path answers
/// a JSON 404 that says how to build it.
pub fn configure_viewer(cfg: &mut actix_web::web::ServiceConfig, static_dir: &std::path::Path) {
    let dir = static_dir.join("api-docs");
    if dir.join("index.html").is_file() {
        cfg.service(
            actix_files::Files::new(VIEWER_PATH, dir)
                .index_file("index.html")
                .redirect_to_slash_directory(),
        );
    } else {
        cfg.service(
            actix_web::web::scope(VIEWER_PATH).default_service(actix_web::web::to(|| async {
                crate::error::json_error(
                    actix_web::http::StatusCode::NOT_FOUND,
                    "not_found",
                    "The API viewer is part of the web app, which has not been built (scripts/run builds it)",
                )
            })),
        );
    }
}

pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok().json(api_document())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_route_is_listed() {
        let table = include_str!("mod.rs");
        let registered: usize = [
            "web::get()",
            "web::post()",
            "web::patch()",
            "web::put()",
            "web::delete()",
        ]
        .iter()
        .map(|m| table.matches(m).count())
        .sum();
        assert_eq!(
            ROUTES.len(),
            registered,
            "routes in mod.rs and in openapi.rs differ"
        );
    }

    #[test]
    fn the_document_names_path_parameters() {
        let doc = document();
        let op = &doc["paths"]["/api/post/like/{postId}"]["post"];
        assert_eq!(op["parameters"][0]["name"], "postId");
        let signup = &doc["paths"]["/api/auth/signup"]["post"];
        let body = &signup["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(body["properties"]["fullName"]["type"], "string");
        assert!(body["required"]
            .as_array()
            .unwrap()
            .contains(&json!("email")));
        assert_eq!(op["tags"][0], "post");
    }

    /// Routes whose success is not a JSON body: they keep their media type.
    const NOT_JSON: &[&str] = &[
        // An HTML page: a person follows the link from an email.
        "/api/dailyMail/unsubscribe",
        "/api/newsletter/confirm",
        "/api/newsletter/unsubscribe",
        // Map files, `application/geo+json`.
        "/api/geojson/india-border",
        "/api/geojson/world",
        // Uploaded images.
        "/media/{name}",
        // A CSV or workbook download.
        "/api/admin/download-csv",
        // The ZIP of a data export.
        "/api/user/export/{id}/download",
        // Prometheus text format.
        "/metrics",
    ];

    /// Routes that only refuse: a request without the id the real route needs.
    const ONLY_REFUSE: &[(&str, &str)] = &[
        ("PATCH", "/api/notification/mark-as-read"),
        ("PATCH", "/api/notification/mark-as-read/"),
        ("GET", "/api/notification/user"),
        ("GET", "/api/notification/user/"),
        ("DELETE", "/api/notification"),
        ("DELETE", "/api/notification/"),
    ];

    #[test]
    fn every_json_answer_is_typed() {
        let untyped: Vec<String> = ROUTES
            .iter()
            .filter(|r| r.success.is_none())
            .filter(|r| !NOT_JSON.contains(&r.path))
            .filter(|r| !ONLY_REFUSE.contains(&(r.method, r.path)))
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        assert!(
            untyped.is_empty(),
            "routes answering JSON without `.returns(...)`: {untyped:?}"
        );
        for path in NOT_JSON {
            let route = ROUTES.iter().find(|r| r.path == *path).unwrap();
            assert!(
                route.success.is_none(),
                "{path} is typed: take it off NOT_JSON"
            );
            assert!(
                success_content(path).get("application/json").is_none(),
                "{path} answers JSON"
            );
        }
    }

    #[test]
    fn one_schema_name_is_one_type() {
        // Named schemas are keyed by the type's name alone: two types of one name in different
        // modules would overwrite each other in the document.
        let mut seen: BTreeMap<String, Value> = BTreeMap::new();
        let mut sets: Vec<SchemaSet> = Vec::new();
        for route in ROUTES {
            sets.extend(
                route
                    .success
                    .into_iter()
                    .chain(route.body.schema())
                    .map(|of| of()),
            );
        }
        for (_, refs) in sets {
            for (name, schema) in refs {
                if let Some(other) = seen.get(&name) {
                    assert_eq!(other, &schema, "two types are named {name}");
                }
                seen.insert(name, schema);
            }
        }
    }

    #[test]
    fn bodies_read_field_by_field_document_their_fields() {
        let doc = document();
        let body = |path: &str, method: &str| {
            doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
                .clone()
        };
        let subscribe = body("/api/subscription/subscribe", "post");
        assert_eq!(subscribe["properties"]["planId"]["type"], "string");
        assert_eq!(subscribe["required"], json!(["planId"]));
        let bank = body("/api/payment/bank-details", "post");
        assert_eq!(
            bank["properties"]["contactData"]["$ref"],
            "#/components/schemas/ContactDataBody"
        );
        let change = body("/api/payment/bank-details/{id}", "patch");
        assert!(change["properties"]["userId"].is_null());
        assert!(change.get("required").is_none());
        let toggle = body("/api/admin/subscriptions/eligibility/toggle", "post");
        assert_eq!(toggle["properties"]["enable"]["type"], "boolean");
        for route in ROUTES {
            if let Some(of) = route.body.schema() {
                let (schema, _) = of();
                assert!(
                    schema["properties"].is_object(),
                    "{} {} documents no fields",
                    route.method,
                    route.path
                );
            }
        }
    }

    #[test]
    fn typed_answers_resolve_their_references() {
        let doc = document();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let text = doc.to_string();
        for name in text
            .split("\"$ref\":\"#/components/schemas/")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap())
        {
            assert!(
                schemas.contains_key(name),
                "{name} is referred to but not defined"
            );
        }
        let health = &doc["paths"]["/health"]["get"]["responses"];
        assert_eq!(health["503"]["content"], health["200"]["content"]);
    }
}
