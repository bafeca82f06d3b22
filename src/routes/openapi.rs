//! `GET /api/openapi.json`: the OpenAPI 3.1 document of every route. The route list below is kept
//! beside the route table in `mod.rs`; a test fails when a route is added there and not here.

use std::collections::BTreeMap;

use actix_web::HttpResponse;
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
    /// A JSON object the handler reads field by field (checked and named in its errors).
    Free,
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

/// Every route the server answers, as registered in [`super::configure`].
pub const ROUTES: &[Route] = &[
    Route {
        method: "GET",
        path: "/health",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/follow/follower-locations",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::follow::follower_locations::FollowerLocationsQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/signup",
        access: Access::Public,
        body: Body::Typed(schema::<crate::routes::auth::signup::SignupBody>),
        query: None,
        created: true,
    },
    Route {
        method: "POST",
        path: "/api/auth/login",
        access: Access::Public,
        body: Body::Typed(schema::<crate::routes::auth::login::LoginBody>),
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/google-login",
        access: Access::Public,
        body: Body::Typed(schema::<crate::routes::auth::google_login::GoogleLoginBody>),
        query: None,
        created: true,
    },
    Route {
        method: "POST",
        path: "/api/auth/send-verify-otp",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::auth::send_verify_otp::SendVerifyBody>),
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/verify-email",
        access: Access::Public,
        body: Body::Typed(schema::<crate::routes::auth::verify_email::VerifyEmailBody>),
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/send-reset-otp",
        access: Access::Public,
        body: Body::Typed(schema::<crate::routes::auth::send_reset_otp::SendResetBody>),
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/verify-reset-otp",
        access: Access::Public,
        body: Body::Typed(schema::<crate::routes::auth::verify_reset_otp::VerifyResetBody>),
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/reset-password",
        access: Access::Public,
        body: Body::Typed(schema::<crate::routes::auth::reset_password::ResetPasswordBody>),
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/auth/check",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/logout",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/logout-all",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/auth/change-password",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::auth::change_password::ChangePasswordBody>),
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/user/get-user",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/user/update-user",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::user::update_user::UpdateUserBody>),
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/user/get-single-user/{id}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/user/consent",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::user::consent::ConsentBody>),
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/user/online",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/user/ip-location",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/user/track-ip-location",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/user/save-location",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::user::save_location::SaveLocationBody>),
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/user/locations",
        access: Access::Admin,
        body: Body::None,
        query: Some(params::<crate::routes::notification::PageQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/user/feedback/check",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/user/feedback/submit",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::user::feedback_submit::SubmitBody>),
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/user/feedback/all",
        access: Access::Admin,
        body: Body::None,
        query: Some(params::<crate::routes::notification::PageQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/user/feedback/manual/{userId}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/user/activity/clear",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/user/activity/clear-old",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/user/activity/{id}",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::user::activity::ActivityQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/user/get-all-user",
        access: Access::Admin,
        body: Body::None,
        query: Some(paged::<crate::routes::admin::ListParams>),
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/user/delete-user",
        access: Access::Admin,
        body: Body::Typed(schema::<crate::routes::admin::users::delete::DeleteUserBody>),
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/user/toggle-block/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/user/toggle-role/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/category",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::category::create::CreateCategoryBody>),
        query: None,
        created: true,
    },
    Route {
        method: "POST",
        path: "/api/category/",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::category::create::CreateCategoryBody>),
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/category/all-category",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/category/user-selected",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/category/check-slug",
        access: Access::Public,
        body: Body::None,
        query: Some(params::<crate::routes::category::check_slug::CheckSlugQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/category/seed",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/category/users/{userId}/categories",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::category::assign::AssignBody>),
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/category/{id}",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::category::update::UpdateCategoryBody>),
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/category/{id}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/post/post-create",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::post::input::PostBody>),
        query: None,
        created: true,
    },
    Route {
        method: "PATCH",
        path: "/api/post/update/{slug}",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::post::input::PostBody>),
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/post/delete/{postId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/post/appeal/{postId}",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::post::appeal::AppealBody>),
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/post/public/posts",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/public/{slug}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/latest-post/latest",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/trending-post/trending",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/search-post/search",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/search-users",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::search_users::SearchUsersQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/all-post",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/following",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/user/{userId}/posts",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/count/all",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/count/my",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/count/following",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/post/like/{postId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/post/bookmark/{postId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/bookmark-status/{postId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/get-post/bookmarks",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/post/view/{slug}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/post/time-spent/{postId}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/post/vote",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::post::vote::VoteBody>),
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/suggested-post/suggested",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::suggested::SuggestedQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/analytics/post/{id}",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::post::analytics_post::AnalyticsQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/analytics/user-engagement",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::post::analytics_user::EngagementQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/post/{postId}/share",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/post/{slug}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/public/posts",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/public/post/{slug}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/public/search-posts",
        access: Access::Public,
        body: Body::None,
        query: Some(params::<crate::routes::post::ListQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/public/guest/visit",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/public/post/{slug}/view",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/comment/add-comment/{postId}",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::comment::add::AddCommentBody>),
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/comment/all-comments/{postId}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/comment/reaction/{commentId}",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::comment::reaction::ReactionBody>),
        query: None,
        created: false,
    },
    Route {
        method: "PUT",
        path: "/api/comment/edit/{commentId}",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::comment::edit::EditBody>),
        query: None,
        created: false,
    },
    Route {
        method: "PUT",
        path: "/api/comment/block/{commentId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/comment/delete/{commentId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/follow/unfollow/{userId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/follow/followers",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::follow::list::FollowQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/follow/following",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::follow::list::FollowQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/follow/status/{userId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/follow/{userId}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/block/block-user/{id}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/block/unblock",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::block::unblock::UnblockBody>),
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/block/list",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/achievement/achievements",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::achievement::achievements::AchievementsQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/achievement/achievements/calculate",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/subscriptions/plans",
        access: Access::Admin,
        body: Body::None,
        query: Some(paged::<crate::routes::admin::subscriptions::plans::PlanQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/subscriptions/eligibility/toggle",
        access: Access::Admin,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/subscriptions/criteria",
        access: Access::Admin,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/subscriptions/eligibility/{userId}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/subscriptions/plan/status",
        access: Access::Admin,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/subscriptions/grant",
        access: Access::Admin,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/subscriptions/user-override/{userId}",
        access: Access::Admin,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/subscriptions/user-milestone/{userId}",
        access: Access::Admin,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/subscriptions/user-milestone-reset/{userId}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/users",
        access: Access::Admin,
        body: Body::None,
        query: Some(paged::<crate::routes::admin::ListParams>),
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/users/block/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/users/role/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/admin/users/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/posts",
        access: Access::Admin,
        body: Body::None,
        query: Some(paged::<crate::routes::admin::ListParams>),
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/posts/block/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/admin/posts/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/audit-log",
        access: Access::Admin,
        body: Body::None,
        query: Some(paged::<crate::routes::admin::audit_log::AuditQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/overview",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/contact",
        access: Access::Optional,
        body: Body::Typed(schema::<crate::routes::admin::contact::create::ContactBody>),
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/admin/contact-messages",
        access: Access::Admin,
        body: Body::None,
        query: Some(params::<crate::routes::admin::PageParams>),
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/contact-messages/{id}/handled",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/reply-contact/{id}",
        access: Access::Admin,
        body: Body::Typed(schema::<crate::routes::admin::contact::reply::ReplyBody>),
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/reports",
        access: Access::User,
        body: Body::Typed(schema::<crate::routes::admin::reports::create::ReportBody>),
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/admin/reports",
        access: Access::Admin,
        body: Body::None,
        query: Some(params::<crate::routes::admin::PageParams>),
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/admin/reports/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/reports/{id}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/replies/send-notification",
        access: Access::Admin,
        body: Body::Typed(schema::<crate::routes::admin::reports::send_notification::NoticeBody>),
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/acknowledge-report/{id}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/analytics",
        access: Access::Admin,
        body: Body::None,
        query: Some(params::<crate::routes::admin::analytics::AnalyticsQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/download-csv",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/admin/email-status",
        access: Access::Admin,
        body: Body::None,
        query: Some(paged::<crate::routes::admin::email::statuses::StatusQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/all-email-statuses",
        access: Access::Admin,
        body: Body::None,
        query: Some(paged::<crate::routes::admin::email::statuses::StatusQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/retry-failed-emails",
        access: Access::Admin,
        body: Body::Typed(schema::<crate::routes::admin::email::retry::RetryBody>),
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/admin/reading-time",
        access: Access::Admin,
        body: Body::Typed(schema::<crate::routes::admin::reading_time::ReadingTimeBody>),
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/admin/reading-details/{postId}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/notification/notifications",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::notification::list::ListQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/notification/unread-count",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/notification/mark-as-read/{id}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/notification/mark-as-read",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/notification/mark-as-read/",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/notification/mark-all-as-read",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/notification/admin",
        access: Access::Admin,
        body: Body::Typed(schema::<crate::routes::notification::admin::AdminNoticeBody>),
        query: None,
        created: true,
    },
    Route {
        method: "POST",
        path: "/api/notification/broadcast",
        access: Access::Admin,
        body: Body::Typed(schema::<crate::routes::notification::broadcast::BroadcastBody>),
        query: None,
        created: true,
    },
    Route {
        method: "POST",
        path: "/api/notification/reply",
        access: Access::Optional,
        body: Body::Typed(schema::<crate::routes::notification::reply::ReplyBody>),
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/notification/user/{userId}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/notification/user",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/notification/user/",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/notification",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/notification/",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/notification/{id}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/bannerNotification/get-Notification",
        access: Access::Optional,
        body: Body::None,
        query: Some(params::<crate::routes::banner::get_notifications::BannerQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/bannerNotification/dismissed/{id}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/bannerNotification/create",
        access: Access::Admin,
        body: Body::Typed(schema::<crate::routes::banner::create::CreateBody>),
        query: None,
        created: true,
    },
    Route {
        method: "PATCH",
        path: "/api/bannerNotification/dismiss/{id}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/bannerNotification/deactivate/{id}",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "DELETE",
        path: "/api/bannerNotification/delete-all",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/dailyMail/daily-post-report",
        access: Access::Admin,
        body: Body::None,
        query: Some(paged::<crate::routes::daily_mail::report::ReportQuery>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/dailyMail/unsubscribe",
        access: Access::Public,
        body: Body::None,
        query: Some(params::<crate::routes::daily_mail::unsubscribe::UnsubscribeQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/dailyMail/unsubscribe",
        access: Access::Public,
        body: Body::None,
        query: Some(params::<crate::routes::daily_mail::unsubscribe::UnsubscribeQuery>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/subscription/plans",
        access: Access::User,
        body: Body::Free,
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/subscription/plans/author/{authorId}",
        access: Access::Optional,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/subscription/plans/{id}",
        access: Access::User,
        body: Body::Free,
        query: None,
        created: true,
    },
    Route {
        method: "DELETE",
        path: "/api/subscription/plans/{id}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: true,
    },
    Route {
        method: "POST",
        path: "/api/subscription/plans/{id}/activate",
        access: Access::User,
        body: Body::None,
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/subscription/plans/{id}/analytics",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/subscription/subscribe",
        // The handler reads the bearer token itself, to answer 401 'Missing authentication token'.
        access: Access::User,
        body: Body::Free,
        query: None,
        created: true,
    },
    Route {
        method: "PATCH",
        path: "/api/subscription/subscriptions/{id}/cancel",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "PATCH",
        path: "/api/subscription/subscriptions/{id}/refund",
        access: Access::User,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/subscription/status",
        access: Access::User,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/subscription/reminders",
        access: Access::Admin,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/subscription/my-plans",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::subscription::lists::ListSwitches>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/subscription/unsubscribe/author",
        access: Access::User,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/subscription/author/{authorId}/subscriptions",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/subscription/my-subscriptions",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::subscription::lists::ListSwitches>),
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/subscription/check-eligibility",
        access: Access::User,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/earning/admin/earnings",
        access: Access::Admin,
        body: Body::None,
        query: Some(params::<crate::routes::admin::PageParams>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/earning/admin/payouts",
        access: Access::Admin,
        body: Body::Free,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/earning/my-earnings",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::admin::PageParams>),
        created: false,
    },
    Route {
        method: "POST",
        path: "/api/payment/bank-details",
        access: Access::User,
        body: Body::Free,
        query: None,
        created: true,
    },
    Route {
        method: "GET",
        path: "/api/payment/bank-details",
        access: Access::User,
        body: Body::None,
        query: Some(params::<crate::routes::payment::bank_details::UserQuery>),
        created: true,
    },
    Route {
        method: "PATCH",
        path: "/api/payment/bank-details/{id}",
        access: Access::User,
        body: Body::Free,
        query: None,
        created: true,
    },
    Route {
        method: "DELETE",
        path: "/api/payment/bank-details/{id}",
        access: Access::User,
        body: Body::None,
        query: None,
        created: true,
    },
    Route {
        method: "POST",
        path: "/api/payment/webhook",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/geojson/india-border",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/geojson/world",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/config/public",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/media/{name}",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
    Route {
        method: "GET",
        path: "/api/openapi.json",
        access: Access::Public,
        body: Body::None,
        query: None,
        created: false,
    },
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
        "/api/geojson/india-border" | "/api/geojson/world" => {
            json!({ "application/geo+json": { "schema": { "type": "object" } } })
        }
        "/api/dailyMail/unsubscribe" => json!({ "text/html": { "schema": { "type": "string" } } }),
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

/// Builds the document from [`ROUTES`] and the request types they name.
pub fn document() -> Value {
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
        let mut ok = json!({ "description": "Success", "content": success_content(route.path) });
        if let Some(links) = links(route) {
            ok["links"] = links;
        }
        if route.created {
            responses.insert("201".into(), ok.clone());
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
        if route.path == "/health" {
            // The database away: the same report, with `"db": "down"`.
            responses.insert(
                "503".into(),
                json!({ "description": "The database is unreachable", "content": success_content(route.path) }),
            );
        }
        if route.path == "/api/dailyMail/unsubscribe" {
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
        let body = match route.body {
            Body::None => None,
            Body::Free => Some(json!({ "type": "object" })),
            Body::Typed(of) => {
                let (schema, refs) = of();
                for (name, s) in refs {
                    schemas.insert(name, s);
                }
                Some(schema)
            }
        };
        if let Some(schema) = body {
            operation["requestBody"] = json!({
                "required": true,
                "content": { "application/json": { "schema": schema } }
            });
        }
        paths
            .entry(key.to_string())
            .or_default()
            .entry(route.method.to_lowercase())
            .or_insert(operation);
    }
    json!({
        "openapi": "3.1.0",
        "info": { "title": "Pressroom API", "version": env!("CARGO_PKG_VERSION") },
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "cookie": { "type": "apiKey", "in": "cookie", "name": "jwt" }
            },
            "schemas": schemas
        }
    })
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
    HttpResponse::Ok().json(document())
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
}
