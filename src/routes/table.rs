//! The route table: every route the server answers, declared once with its method, path, access,
//! handler, body and answer types. [`super::configure`] registers the actix routes from it and
//! [`super::openapi`] builds the OpenAPI document from it, so the two cannot differ.

use serde_json::Value;

use super::api_document::ApiDocument;

/// Mounts a handler on an actix route (whose method is already set).
pub type Mount = fn(actix_web::Route) -> actix_web::Route;

/// The [`Mount`] of a handler function: `to!(post::like::like)`.
macro_rules! to {
    ($handler:path) => {{
        fn mount(route: actix_web::Route) -> actix_web::Route {
            route.to($handler)
        }
        mount as Mount
    }};
}

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
    /// A file upload (`multipart/form-data` with `source` and `file`), or a JSON object of the
    /// given type.
    Upload(fn() -> SchemaSet),
}

impl Body {
    /// The body's type, when it reads one.
    pub fn schema(self) -> Option<fn() -> SchemaSet> {
        match self {
            Body::None => None,
            Body::Typed(of) | Body::Optional(of) | Body::Upload(of) => Some(of),
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
    /// Mounts the handler on an actix route of this method (see [`to!`]).
    pub handler: Mount,
    /// Also answers `HEAD` with the same handler (not listed in the document).
    pub head: bool,
    /// Refusals carry `error` as well as `message` (seed 001 §8): the route is wrapped in
    /// [`crate::middleware::error_field`].
    pub error_field: bool,
    pub body: Body,
    pub query: Option<fn() -> Vec<Value>>,
    /// Answers 201 on success (otherwise 200).
    pub created: bool,
    /// Answers 202 on success: the work was queued to the job worker.
    pub accepted: bool,
    /// The type of a successful JSON answer, where the handler answers with one (otherwise the
    /// answer is documented as a JSON object, or by its media type).
    pub success: Option<fn() -> SchemaSet>,
    /// The scope a personal API key needs for this route; `None`: keys cannot use it.
    pub scope: Option<&'static str>,
    /// A page of the site for the outside world (HTML, a feed, a sitemap, a share image): left
    /// out of the API document, but registered and checked (the authorization matrix) like any.
    pub site: bool,
}

const fn route(method: &'static str, path: &'static str, access: Access, handler: Mount) -> Route {
    Route {
        method,
        path,
        access,
        handler,
        head: false,
        error_field: false,
        body: Body::None,
        query: None,
        created: false,
        accepted: false,
        success: None,
        scope: None,
        site: false,
    }
}

const fn get(path: &'static str, access: Access, handler: Mount) -> Route {
    route("GET", path, access, handler)
}

const fn post(path: &'static str, access: Access, handler: Mount) -> Route {
    route("POST", path, access, handler)
}

const fn patch(path: &'static str, access: Access, handler: Mount) -> Route {
    route("PATCH", path, access, handler)
}

const fn put(path: &'static str, access: Access, handler: Mount) -> Route {
    route("PUT", path, access, handler)
}

const fn delete(path: &'static str, access: Access, handler: Mount) -> Route {
    route("DELETE", path, access, handler)
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

    /// A personal API key with `scope` may call the route.
    const fn scope(self, scope: &'static str) -> Self {
        Route {
            scope: Some(scope),
            ..self
        }
    }

    /// The route is a page of the site, not part of the API (see [`Route::site`]).
    const fn site(self) -> Self {
        Route { site: true, ..self }
    }

    /// The route also answers `HEAD`.
    const fn and_head(self) -> Self {
        Route { head: true, ..self }
    }

    /// The route's refusals carry `error` as well as `message`.
    const fn error_field(self) -> Self {
        Route {
            error_field: true,
            ..self
        }
    }

    /// The actix route: this route's method, answered by its handler.
    pub fn actix_route(&self) -> actix_web::Route {
        (self.handler)(actix_web::web::method(method(self.method)))
    }
}

/// The HTTP method of a table entry.
fn method(name: &str) -> actix_web::http::Method {
    use actix_web::http::Method;
    match name {
        "GET" => Method::GET,
        "POST" => Method::POST,
        "PATCH" => Method::PATCH,
        "PUT" => Method::PUT,
        "DELETE" => Method::DELETE,
        other => unreachable!("the table names no {other} routes"),
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
    out.extend(params::<crate::routes::paging::PageParams>());
    out
}

use super::{
    achievement, admin, answers, api_document, auth, banner, block, category, comment, daily_mail,
    earning, follow, geojson, health, import, keys, media, metrics, newsletter, notification,
    paging, payment, post, public, public_config, push, series, site, subscription, tip, user,
    webhooks,
};
use Access::{Admin, Optional, Public, User};

/// Every route the server answers, in the order [`super::configure`] registers them (where two
/// patterns overlap, the one listed first is tried first: `/api/post/{slug}` comes last).
#[rustfmt::skip]
pub const ROUTES: &[Route] = &[
    get("/health", Public, to!(health::health)).returns(schema::<health::HealthAnswer>),
    get("/metrics", Public, to!(metrics::metrics)),
    // The site's pages for the outside world (not in the API document).
    get("/", Public, to!(site::pages::home)).and_head().site(),
    get("/robots.txt", Public, to!(site::sitemap::robots)).site(),
    get("/sitemap.xml", Public, to!(site::sitemap::index)).site(),
    get("/sitemap-{kind:[a-z]+}-{n:[0-9]{1,9}}.xml", Public, to!(site::sitemap::child)).site(),
    get("/feed.xml", Public, to!(site::feeds::site_atom)).site(),
    get("/rss.xml", Public, to!(site::feeds::site_rss)).site(),
    get("/author-profile/{id}/{file:(?:feed|rss)\\.xml}", Public, to!(site::feeds::author)).site(),
    get("/tag/{tag}/{file:(?:feed|rss)\\.xml}", Public, to!(site::feeds::tag)).site(),
    get("/category/{slug}/{file:(?:feed|rss)\\.xml}", Public, to!(site::feeds::category)).site(),
    get("/series/{slug}/{file:(?:feed|rss)\\.xml}", Public, to!(site::feeds::series)).site(),
    get("/feeds/private/{reader}/{author}/{file}", Public, to!(site::feeds::private)).site(),
    get("/og/post/{file}", Public, to!(site::share::post_image)).site(),
    get("/api/follow/follower-locations", User, to!(follow::follower_locations::follower_locations)).with_query(params::<follow::follower_locations::FollowerLocationsQuery>).returns(schema::<follow::follower_locations::FollowerLocationsAnswer>),
    post("/api/auth/signup", Public, to!(auth::signup::signup)).with_body(Body::Typed(schema::<auth::signup::SignupBody>)).creates().returns(schema::<auth::SessionBody>),
    post("/api/auth/login", Public, to!(auth::login::login)).with_body(Body::Typed(schema::<auth::login::LoginBody>)).returns(schema::<auth::two_factor::LoginAnswer>),
    post("/api/auth/google-login", Public, to!(auth::google_login::google_login)).with_body(Body::Typed(schema::<auth::google_login::GoogleLoginBody>)).creates().returns(schema::<auth::two_factor::GoogleLoginAnswer>),
    post("/api/auth/send-verify-otp", User, to!(auth::send_verify_otp::send_verify_otp)).with_body(Body::Typed(schema::<auth::send_verify_otp::SendVerifyBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/verify-email", Public, to!(auth::verify_email::verify_email)).with_body(Body::Typed(schema::<auth::verify_email::VerifyEmailBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/send-reset-otp", Public, to!(auth::send_reset_otp::send_reset_otp)).with_body(Body::Typed(schema::<auth::send_reset_otp::SendResetBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/verify-reset-otp", Public, to!(auth::verify_reset_otp::verify_reset_otp)).with_body(Body::Typed(schema::<auth::verify_reset_otp::VerifyResetBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/reset-password", Public, to!(auth::reset_password::reset_password)).with_body(Body::Typed(schema::<auth::reset_password::ResetPasswordBody>)).returns(schema::<answers::MessageAnswer>),
    get("/api/auth/check", User, to!(auth::check::check)).returns(schema::<auth::check::CheckBody>).scope("read:posts"),
    post("/api/auth/logout", Public, to!(auth::logout::logout)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/logout-all", User, to!(auth::logout_all::logout_all)).returns(schema::<answers::MessageAnswer>),
    get("/api/auth/sessions", User, to!(auth::sessions::list)).returns(schema::<auth::sessions::SessionsAnswer>),
    delete("/api/auth/sessions/{id}", User, to!(auth::sessions::end)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/reauth", User, to!(auth::reauth::reauth)).with_body(Body::Typed(schema::<auth::reauth::ReauthBody>)).returns(schema::<auth::reauth::ReauthAnswer>),
    get("/api/auth/2fa", User, to!(auth::two_factor::status)).returns(schema::<auth::two_factor::StatusAnswer>),
    post("/api/auth/2fa/setup", User, to!(auth::two_factor::setup)).returns(schema::<auth::two_factor::SetupAnswer>),
    post("/api/auth/2fa/enable", User, to!(auth::two_factor::enable)).with_body(Body::Typed(schema::<auth::two_factor::CodeBody>)).returns(schema::<auth::two_factor::RecoveryCodesAnswer>),
    post("/api/auth/2fa/disable", User, to!(auth::two_factor::disable)).with_body(Body::Typed(schema::<auth::two_factor::PasswordCodeBody>)).returns(schema::<answers::MessageAnswer>),
    post("/api/auth/2fa/recovery-codes", User, to!(auth::two_factor::recovery_codes)).with_body(Body::Typed(schema::<auth::two_factor::PasswordCodeBody>)).returns(schema::<auth::two_factor::RecoveryCodesAnswer>),
    post("/api/auth/2fa/verify", Public, to!(auth::two_factor::verify)).with_body(Body::Typed(schema::<auth::two_factor::VerifyBody>)).returns(schema::<auth::SessionBody>),
    post("/api/auth/passkeys/register/options", User, to!(auth::passkeys::register_options)).returns(schema::<auth::passkeys::OptionsAnswer>),
    post("/api/auth/passkeys/register/verify", User, to!(auth::passkeys::register_verify)).with_body(Body::Typed(schema::<auth::passkeys::RegisterBody>)).creates().returns(schema::<crate::services::passkey_account::PasskeyView>),
    post("/api/auth/passkeys/login/options", Public, to!(auth::passkeys::login_options)).returns(schema::<auth::passkeys::OptionsAnswer>),
    post("/api/auth/passkeys/login/verify", Public, to!(auth::passkeys::login_verify)).with_body(Body::Typed(schema::<crate::services::passkey_account::PasskeyAssertion>)).returns(schema::<auth::SessionBody>),
    post("/api/auth/passkeys/reauth/options", User, to!(auth::passkeys::reauth_options)).returns(schema::<auth::passkeys::OptionsAnswer>),
    get("/api/auth/passkeys", User, to!(auth::passkeys::list)).returns(schema::<auth::passkeys::PasskeysAnswer>),
    patch("/api/auth/passkeys/{id}", User, to!(auth::passkeys::rename)).with_body(Body::Typed(schema::<auth::passkeys::RenameBody>)).returns(schema::<crate::services::passkey_account::PasskeyView>),
    delete("/api/auth/passkeys/{id}", User, to!(auth::passkeys::remove)).returns(schema::<answers::MessageAnswer>),
    get("/api/auth/security-log", User, to!(auth::passkeys::security_log)).returns(schema::<auth::passkeys::SecurityLogAnswer>),
    post("/api/keys", User, to!(keys::create)).with_body(Body::Typed(schema::<keys::CreateKeyBody>)).creates().returns(schema::<keys::CreatedKey>),
    get("/api/keys", User, to!(keys::list)).returns(schema::<keys::KeysAnswer>),
    get("/api/keys/scopes", User, to!(keys::scopes)).returns(schema::<keys::ScopesAnswer>),
    delete("/api/keys/{id}", User, to!(keys::revoke)).returns(schema::<answers::MessageAnswer>),
    post("/api/webhooks", User, to!(webhooks::create)).with_body(Body::Typed(schema::<webhooks::CreateWebhookBody>)).creates().returns(schema::<webhooks::CreatedWebhook>),
    get("/api/webhooks", User, to!(webhooks::list)).returns(schema::<webhooks::WebhooksAnswer>),
    get("/api/webhooks/event-types", User, to!(webhooks::event_types)).returns(schema::<webhooks::EventTypesAnswer>),
    post("/api/webhooks/deliveries/{id}/resend", User, to!(webhooks::resend)).accepts().returns(schema::<webhooks::QueuedAnswer>),
    patch("/api/webhooks/{id}", User, to!(webhooks::update)).with_body(Body::Typed(schema::<webhooks::UpdateWebhookBody>)).returns(schema::<crate::services::webhooks::EndpointView>),
    delete("/api/webhooks/{id}", User, to!(webhooks::remove)).returns(schema::<answers::MessageAnswer>),
    post("/api/webhooks/{id}/test", User, to!(webhooks::test)).accepts().returns(schema::<webhooks::QueuedAnswer>),
    post("/api/webhooks/{id}/rotate-secret", User, to!(webhooks::rotate)).returns(schema::<webhooks::SecretAnswer>),
    get("/api/webhooks/{id}/deliveries", User, to!(webhooks::deliveries)).returns(schema::<webhooks::DeliveriesAnswer>),
    get("/api/push/vapid-public-key", Public, to!(push::public_key)).returns(schema::<push::PublicKeyAnswer>),
    post("/api/push/subscriptions", User, to!(push::subscribe)).with_body(Body::Typed(schema::<crate::services::push::SubscriptionInput>)).creates().returns(schema::<crate::services::push::DeviceView>),
    get("/api/push/subscriptions", User, to!(push::list)).returns(schema::<push::DevicesAnswer>),
    delete("/api/push/subscriptions/{id}", User, to!(push::remove)).returns(schema::<answers::MessageAnswer>),
    get("/api/push/preferences", User, to!(push::preferences)).returns(schema::<push::PreferencesAnswer>),
    put("/api/push/preferences", User, to!(push::save_preferences)).with_body(Body::Typed(schema::<crate::services::push::PreferencesInput>)).returns(schema::<push::PreferencesAnswer>),
    post("/api/auth/change-password", User, to!(auth::change_password::change_password)).with_body(Body::Typed(schema::<auth::change_password::ChangePasswordBody>)).returns(schema::<auth::change_password::PasswordChangedAnswer>),
    get("/api/user/get-user", User, to!(user::get_user::get_user)).returns(schema::<user::OwnUserAnswer>).scope("read:posts"),
    patch("/api/user/update-user", User, to!(user::update_user::update_user)).with_body(Body::Typed(schema::<user::update_user::UpdateUserBody>)).returns(schema::<user::OwnUserAnswer>),
    get("/api/user/get-single-user/{id}", Optional, to!(user::get_single_user::get_single_user)).returns(schema::<user::get_single_user::ProfileAnswer>).scope("read:posts"),
    post("/api/user/consent", User, to!(user::consent::consent)).with_body(Body::Typed(schema::<user::consent::ConsentBody>)).returns(schema::<user::consent::ConsentAnswer>),
    post("/api/import", User, to!(import::start)).with_body(Body::Upload(schema::<import::ImportFeedBody>)).accepts().returns(schema::<import::ImportStartedAnswer>).scope("write:drafts"),
    get("/api/import", User, to!(import::list)).returns(schema::<import::ImportsAnswer>).scope("read:posts"),
    get("/api/import/{id}", User, to!(import::get)).returns(schema::<crate::services::import::ImportView>).scope("read:posts"),
    post("/api/import/{id}/confirm", User, to!(import::confirm)).with_body(Body::Optional(schema::<import::ConfirmImportBody>)).accepts().returns(schema::<import::ImportStartedAnswer>).scope("write:drafts"),
    post("/api/import/{id}/cancel", User, to!(import::cancel)).returns(schema::<import::ImportStartedAnswer>).scope("write:drafts"),
    delete("/api/import/{id}/posts", User, to!(import::remove_posts)).returns(schema::<import::ImportPostsRemovedAnswer>).scope("publish:posts"),
    post("/api/user/export", User, to!(user::export::start)).accepts().returns(schema::<user::export::ExportStartedAnswer>),
    get("/api/user/export", User, to!(user::export::list)).returns(schema::<user::export::ExportsAnswer>),
    get("/api/user/export/{id}/download", User, to!(user::export::download)).with_query(params::<user::export::DownloadQuery>),
    post("/api/user/delete-account", User, to!(user::delete_account::delete_account)).with_body(Body::Typed(schema::<user::delete_account::DeleteAccountBody>)).returns(schema::<user::delete_account::DeletionScheduledAnswer>),
    get("/api/user/online", Public, to!(user::online::online)).returns(schema::<user::online::OnlineAnswer>),
    get("/api/user/ip-location", Optional, to!(user::ip_location::ip_location)).returns(schema::<user::ip_location::IpLocationAnswer>),
    post("/api/user/track-ip-location", User, to!(user::track_ip_location::track_ip_location)).returns(schema::<user::locations::LocationAnswer>),
    post("/api/user/save-location", User, to!(user::save_location::save_location)).with_body(Body::Typed(schema::<user::save_location::SaveLocationBody>)).returns(schema::<user::locations::LocationAnswer>),
    get("/api/user/locations", Admin, to!(user::locations::locations)).with_query(params::<paging::PageQuery>).returns(schema::<user::locations::LocationsAnswer>),
    get("/api/user/feedback/check", User, to!(user::feedback_check::feedback_check)).returns(schema::<user::feedback_check::FeedbackCheckAnswer>),
    post("/api/user/feedback/submit", User, to!(user::feedback_submit::feedback_submit)).with_body(Body::Typed(schema::<user::feedback_submit::SubmitBody>)).creates().returns(schema::<user::feedback_submit::FeedbackSubmitAnswer>),
    get("/api/user/feedback/all", Admin, to!(user::feedback_all::feedback_all)).with_query(params::<paging::PageQuery>).returns(schema::<user::feedback_all::FeedbacksAnswer>),
    post("/api/user/feedback/manual/{userId}", Admin, to!(user::feedback_manual::feedback_manual)).returns(schema::<user::feedback_manual::PromptAnswer>),
    delete("/api/user/activity/clear", User, to!(user::activity_clear::clear)).returns(schema::<answers::DeletedAnswer>),
    delete("/api/user/activity/clear-old", User, to!(user::activity_clear::clear_old)).returns(schema::<answers::DeletedAnswer>),
    get("/api/user/activity/{id}", User, to!(user::activity::get_activity)).with_query(params::<user::activity::ActivityQuery>).returns(schema::<user::activity::ActivityAnswer>),
    get("/api/user/get-all-user", Admin, to!(admin::users::list::list)).with_query(paged::<admin::ListParams>).returns(schema::<admin::users::list::UsersAnswer>).scope("admin:read"),
    delete("/api/user/delete-user", Admin, to!(admin::users::delete::delete_by_body)).with_body(Body::Typed(schema::<admin::users::delete::DeleteUserBody>)).returns(schema::<admin::users::delete::UserDeleted>),
    patch("/api/user/toggle-block/{id}", Admin, to!(admin::users::block::toggle_block)).returns(schema::<admin::users::AdminUserAnswer>),
    patch("/api/user/toggle-role/{id}", Admin, to!(admin::users::role::toggle_role)).returns(schema::<admin::users::AdminUserAnswer>),
    post("/api/category", User, to!(category::create::create)).with_body(Body::Typed(schema::<category::create::CreateCategoryBody>)).creates().returns(schema::<crate::services::categories::CategoryAnswer>),
    post("/api/category/", User, to!(category::create::create)).with_body(Body::Typed(schema::<category::create::CreateCategoryBody>)).creates().returns(schema::<crate::services::categories::CategoryAnswer>),
    get("/api/category/all-category", Public, to!(category::all_category::all_category)).returns(schema::<crate::services::categories::CategoriesAnswer>),
    get("/api/category/user-selected", User, to!(category::user_selected::user_selected)).returns(schema::<crate::services::categories::CategoriesAnswer>).scope("read:posts"),
    get("/api/category/check-slug", Public, to!(category::check_slug::check_slug)).with_query(params::<category::check_slug::CheckSlugQuery>).returns(schema::<category::check_slug::SlugAnswer>),
    post("/api/category/seed", Admin, to!(category::seed::seed)).returns(schema::<category::seed::SeedAnswer>),
    post("/api/category/users/{userId}/categories", User, to!(category::assign::assign)).with_body(Body::Typed(schema::<category::assign::AssignBody>)).returns(schema::<crate::services::categories::CategoriesAnswer>),
    patch("/api/category/{id}", User, to!(category::update::update)).with_body(Body::Typed(schema::<category::update::UpdateCategoryBody>)).returns(schema::<crate::services::categories::CategoryAnswer>),
    delete("/api/category/{id}", User, to!(category::delete::delete)).returns(schema::<category::delete::CategoryDeletedAnswer>),
    post("/api/post/post-create", User, to!(post::create::create)).with_body(Body::Typed(schema::<post::input::PostBody>)).creates().returns(schema::<post::PostAnswer>).scope("write:drafts"),
    patch("/api/post/update/{slug}", User, to!(post::update::update)).with_body(Body::Typed(schema::<post::input::PostBody>)).returns(schema::<post::update::PostUpdatedAnswer>).scope("write:drafts"),
    delete("/api/post/delete/{postId}", User, to!(post::delete::delete)).returns(schema::<crate::services::deletion::PostDeletedAnswer>).scope("publish:posts"),
    post("/api/post/appeal/{postId}", User, to!(post::appeal::appeal)).with_body(Body::Typed(schema::<post::appeal::AppealBody>)).creates().returns(schema::<post::appeal::AppealAnswer>),
    get("/api/post/public/posts", Optional, to!(post::public_posts::public_posts)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>).scope("read:posts"),
    get("/api/post/public/{slug}", Optional, to!(post::get_post::get_post)).returns(schema::<post::PostAnswer>).scope("read:posts"),
    get("/api/post/latest-post/latest", Optional, to!(post::latest::latest)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>).scope("read:posts"),
    get("/api/post/trending-post/trending", Optional, to!(post::trending::trending)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>).scope("read:posts"),
    get("/api/post/search-post/search", Optional, to!(post::search::search)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>).scope("read:posts"),
    get("/api/post/search-users", Optional, to!(post::search_users::search_users)).with_query(params::<post::search_users::SearchUsersQuery>).returns(schema::<post::search_users::UserHitsAnswer>).scope("read:posts"),
    get("/api/post/all-post", Optional, to!(post::all_posts::all_posts)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>).scope("read:posts"),
    get("/api/post/following", Optional, to!(post::following::following)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>).scope("read:posts"),
    get("/api/post/user/{userId}/posts", Optional, to!(post::user_posts::user_posts)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>).scope("read:posts"),
    get("/api/post/count/all", Optional, to!(post::count::count_all)).returns(schema::<answers::CountAnswer>).scope("read:posts"),
    get("/api/post/count/my", Optional, to!(post::count::count_my)).returns(schema::<answers::CountAnswer>).scope("read:posts"),
    get("/api/post/count/following", Optional, to!(post::count::count_following)).returns(schema::<answers::CountAnswer>).scope("read:posts"),
    post("/api/post/like/{postId}", User, to!(post::like::like)).returns(schema::<post::like::LikeAnswer>),
    post("/api/post/bookmark/{postId}", User, to!(post::bookmark::bookmark)).returns(schema::<post::bookmark::BookmarkAnswer>),
    get("/api/post/bookmark-status/{postId}", User, to!(post::bookmark_status::bookmark_status)).returns(schema::<post::bookmark_status::MarksAnswer>).scope("read:posts"),
    get("/api/post/get-post/bookmarks", User, to!(post::bookmarks::bookmarked_posts)).returns(schema::<post::PostsAnswer>).scope("read:posts"),
    post("/api/post/view/{slug}", Optional, to!(post::view::view)).returns(schema::<post::view::ViewsAnswer>),
    post("/api/post/time-spent/{postId}", Optional, to!(post::time_spent::time_spent)).returns(schema::<post::time_spent::TimeSpentAnswer>),
    post("/api/post/vote", User, to!(post::vote::vote)).with_body(Body::Typed(schema::<post::vote::VoteBody>)).returns(schema::<post::vote::VoteAnswer>),
    get("/api/post/suggested-post/suggested", Optional, to!(post::suggested::suggested)).with_query(params::<post::suggested::SuggestedQuery>).returns(schema::<post::PostsAnswer>).scope("read:posts"),
    get("/api/post/analytics/post/{id}", User, to!(post::analytics_post::post_analytics)).with_query(params::<post::analytics_post::AnalyticsQuery>).returns(schema::<crate::services::post_analytics::post::PostAnalyticsAnswer>).error_field().scope("read:stats"),
    get("/api/post/delivery/{id}", User, to!(post::delivery::delivery)).returns(schema::<crate::services::post_delivery::DeliveryAnswer>).scope("read:stats"),
    get("/api/post/analytics/user-engagement", User, to!(post::analytics_user::user_engagement)).with_query(params::<post::analytics_user::EngagementQuery>).returns(schema::<crate::services::post_analytics::user::EngagementAnswer>).error_field().scope("read:stats"),
    get("/api/post/{id}/revisions", User, to!(post::revisions::list)).returns(schema::<post::revisions::RevisionsAnswer>).scope("read:posts"),
    get("/api/post/{id}/revisions/compare", User, to!(post::revisions::compare)).with_query(params::<post::revisions::CompareQuery>).returns(schema::<post::revisions::CompareAnswer>).scope("read:posts"),
    get("/api/post/{id}/revisions/{revisionId}", User, to!(post::revisions::get)).returns(schema::<post::revisions::RevisionAnswer>).scope("read:posts"),
    post("/api/post/{id}/revisions/{revisionId}/restore", User, to!(post::revisions::restore)).returns(schema::<post::revisions::RestoreAnswer>).scope("write:drafts"),
    post("/api/series", User, to!(series::create)).with_body(Body::Typed(schema::<series::SeriesBody>)).creates().returns(schema::<series::SeriesChangedAnswer>).scope("write:drafts"),
    get("/api/series/mine", User, to!(series::mine)).returns(schema::<series::MySeriesAnswer>).scope("read:posts"),
    get("/api/series/{series}", Optional, to!(series::get)).returns(schema::<series::SeriesAnswer>).scope("read:posts"),
    patch("/api/series/{series}", User, to!(series::update)).with_body(Body::Typed(schema::<series::SeriesBody>)).returns(schema::<series::SeriesChangedAnswer>).scope("write:drafts"),
    delete("/api/series/{series}", User, to!(series::delete)).returns(schema::<series::SeriesDeletedAnswer>).scope("write:drafts"),
    post("/api/series/{series}/posts", User, to!(series::add_part)).with_body(Body::Typed(schema::<series::AddPartBody>)).returns(schema::<series::SeriesChangedAnswer>).scope("write:drafts"),
    put("/api/series/{series}/posts", User, to!(series::reorder)).with_body(Body::Typed(schema::<series::OrderBody>)).returns(schema::<series::SeriesChangedAnswer>).scope("write:drafts"),
    delete("/api/series/{series}/posts/{postId}", User, to!(series::remove_part)).returns(schema::<series::SeriesChangedAnswer>).scope("write:drafts"),
    post("/api/series/{series}/follow", User, to!(series::follow)).returns(schema::<series::FollowAnswer>),
    delete("/api/series/{series}/follow", User, to!(series::unfollow)).returns(schema::<series::FollowAnswer>),
    put("/api/series/{series}/follow/alerts", User, to!(series::set_alerts)).with_body(Body::Typed(schema::<follow::alerts::AlertsBody>)).returns(schema::<series::FollowAnswer>),
    post("/api/post/{postId}/share", Optional, to!(post::share::share)).returns(schema::<post::share::ShareAnswer>),
    get("/api/post/{id}/supporters", Public, to!(tip::lists::supporters)).with_query(params::<paging::PageParams>).returns(schema::<tip::lists::SupportersAnswer>),
    get("/api/post/{slug}", Optional, to!(post::get_post::get_post)).returns(schema::<post::PostAnswer>).scope("read:posts"),
    get("/api/public/posts", Optional, to!(public::posts::posts)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>).scope("read:posts"),
    get("/api/public/post/{slug}", Optional, to!(post::get_post::get_post)).returns(schema::<post::PostAnswer>).scope("read:posts"),
    get("/api/public/search-posts", Public, to!(public::search_posts::search_posts)).with_query(params::<crate::services::posts::ListQuery>).returns(schema::<post::ListAnswer>),
    post("/api/public/guest/visit", Public, to!(public::guest_visit::guest_visit)).returns(schema::<public::guest_visit::GuestAnswer>),
    post("/api/public/post/{slug}/view", Optional, to!(public::view::view)).returns(schema::<public::view::ViewTrackedAnswer>),
    post("/api/comment/add-comment/{postId}", User, to!(comment::add::add_comment)).with_body(Body::Typed(schema::<comment::add::AddCommentBody>)).creates().returns(schema::<comment::CommentAnswer>).scope("write:comments"),
    get("/api/comment/all-comments/{postId}", Optional, to!(comment::all::all_comments)).returns(schema::<comment::all::CommentsAnswer>).scope("read:comments"),
    post("/api/comment/reaction/{commentId}", User, to!(comment::reaction::reaction)).with_body(Body::Typed(schema::<comment::reaction::ReactionBody>)).returns(schema::<comment::reaction::ReactionAnswer>),
    put("/api/comment/edit/{commentId}", User, to!(comment::edit::edit)).with_body(Body::Typed(schema::<comment::edit::EditBody>)).returns(schema::<comment::CommentAnswer>).scope("write:comments"),
    put("/api/comment/block/{commentId}", User, to!(comment::block::block)).returns(schema::<comment::CommentAnswer>),
    delete("/api/comment/delete/{commentId}", User, to!(comment::delete::delete)).returns(schema::<comment::delete::CommentDeletedAnswer>).scope("write:comments"),
    post("/api/follow/unfollow/{userId}", User, to!(follow::unfollow::unfollow)).returns(schema::<crate::services::follows::FollowAnswer>),
    get("/api/follow/followers", User, to!(follow::list::followers)).with_query(params::<follow::list::FollowQuery>).returns(schema::<follow::list::FollowListAnswer>).scope("read:subscribers"),
    get("/api/follow/following", User, to!(follow::list::following)).with_query(params::<follow::list::FollowQuery>).returns(schema::<follow::list::FollowListAnswer>).scope("read:subscribers"),
    get("/api/follow/status/{userId}", User, to!(follow::status::status)).returns(schema::<follow::status::FollowStatusAnswer>),
    put("/api/follow/alerts/{authorId}", User, to!(follow::alerts::set_alerts)).with_body(Body::Typed(schema::<follow::alerts::AlertsBody>)).returns(schema::<follow::alerts::AlertsAnswer>),
    post("/api/follow/{userId}", User, to!(follow::follow_user::follow)).returns(schema::<crate::services::follows::FollowAnswer>),
    post("/api/block/block-user/{id}", User, to!(block::block_user::block_user)).returns(schema::<block::BlockAnswer>),
    post("/api/block/unblock", User, to!(block::unblock::unblock)).with_body(Body::Typed(schema::<block::unblock::UnblockBody>)).returns(schema::<block::BlockAnswer>),
    get("/api/block/list", User, to!(block::list::list)).returns(schema::<block::list::BlockedAnswer>),
    get("/api/achievement/achievements", User, to!(achievement::achievements::achievements)).with_query(params::<achievement::achievements::AchievementsQuery>).returns(schema::<crate::services::achievements::AchievementsAnswer>),
    post("/api/achievement/achievements/calculate", User, to!(achievement::calculate::calculate)).returns(schema::<crate::services::achievements::CalculatedAnswer>),
    get("/api/admin/subscriptions/plans", Admin, to!(admin::subscriptions::plans::list)).with_query(paged::<admin::subscriptions::plans::PlanQuery>).returns(schema::<admin::subscriptions::plans::AllPlansAnswer>),
    post("/api/admin/subscriptions/eligibility/toggle", Admin, to!(admin::subscriptions::eligibility::toggle)).with_body(Body::Typed(schema::<admin::subscriptions::eligibility::ToggleBody>)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    patch("/api/admin/subscriptions/criteria", Admin, to!(admin::subscriptions::criteria::update)).with_body(Body::Typed(schema::<admin::subscriptions::criteria::CriteriaBody>)).returns(schema::<admin::subscriptions::criteria::CriteriaAnswer>),
    get("/api/admin/subscriptions/eligibility/{userId}", Admin, to!(admin::subscriptions::eligibility::check)).returns(schema::<crate::services::billing::eligibility::EligibilityView>),
    patch("/api/admin/subscriptions/plan/status", Admin, to!(admin::subscriptions::plans::set_status)).with_body(Body::Typed(schema::<admin::subscriptions::plans::PlanStatusBody>)).returns(schema::<subscription::PlanAnswer>),
    post("/api/admin/subscriptions/grant", Admin, to!(admin::subscriptions::eligibility::grant)).with_body(Body::Typed(schema::<admin::subscriptions::eligibility::GrantBody>)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    patch("/api/admin/subscriptions/user-override/{userId}", Admin, to!(admin::subscriptions::eligibility::user_override)).with_body(Body::Typed(schema::<admin::subscriptions::eligibility::OverrideBody>)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    patch("/api/admin/subscriptions/user-milestone/{userId}", Admin, to!(admin::subscriptions::milestones::set_override)).with_body(Body::Typed(schema::<admin::subscriptions::milestones::MilestoneBody>)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    patch("/api/admin/subscriptions/user-milestone-reset/{userId}", Admin, to!(admin::subscriptions::milestones::reset)).returns(schema::<admin::subscriptions::EligibilityAnswer>),
    get("/api/admin/users", Admin, to!(admin::users::list::list)).with_query(paged::<admin::ListParams>).returns(schema::<admin::users::list::UsersAnswer>).scope("admin:read"),
    patch("/api/admin/users/block/{id}", Admin, to!(admin::users::block::toggle_block)).returns(schema::<admin::users::AdminUserAnswer>).scope("admin:moderate"),
    patch("/api/admin/users/role/{id}", Admin, to!(admin::users::role::toggle_role)).returns(schema::<admin::users::AdminUserAnswer>),
    delete("/api/admin/users/{id}", Admin, to!(admin::users::delete::delete_by_path)).returns(schema::<admin::users::delete::UserDeleted>),
    get("/api/admin/posts", Admin, to!(admin::posts::list::list)).with_query(paged::<admin::ListParams>).returns(schema::<admin::posts::list::AdminPostsAnswer>).scope("admin:read"),
    patch("/api/admin/posts/block/{id}", Admin, to!(admin::block_post::block_post)).returns(schema::<admin::block_post::PostBlockAnswer>).scope("admin:moderate"),
    delete("/api/admin/posts/{id}", Admin, to!(admin::posts::delete::delete)).returns(schema::<crate::services::deletion::PostDeletedAnswer>),
    get("/api/admin/audit-log", Admin, to!(admin::audit_log::audit_log)).with_query(paged::<admin::audit_log::AuditQuery>).returns(schema::<admin::audit_log::AuditAnswer>).scope("admin:read"),
    get("/api/admin/settings", Admin, to!(admin::settings::get)).returns(schema::<admin::settings::SettingsAnswer>),
    patch("/api/admin/settings", Admin, to!(admin::settings::update)).with_body(Body::Typed(schema::<admin::settings::SettingsBody>)).returns(schema::<admin::settings::SettingsUpdatedAnswer>),
    get("/api/admin/overview", Admin, to!(admin::overview::overview)).returns(schema::<crate::services::overview::Overview>).scope("admin:read"),
    post("/api/admin/contact", Optional, to!(admin::contact::create::create)).with_body(Body::Typed(schema::<admin::contact::create::ContactBody>)).creates().returns(schema::<admin::contact::create::ContactSent>),
    get("/api/admin/contact-messages", Admin, to!(admin::contact::list::list)).with_query(params::<paging::PageParams>).returns(schema::<admin::contact::list::ContactMessages>).scope("admin:read"),
    patch("/api/admin/contact-messages/{id}/handled", Admin, to!(admin::contact::handled::toggle_handled)).returns(schema::<admin::contact::ContactAnswer>),
    post("/api/admin/reply-contact/{id}", Admin, to!(admin::contact::reply::reply)).with_body(Body::Typed(schema::<admin::contact::reply::ReplyBody>)).returns(schema::<admin::contact::ContactAnswer>),
    get("/api/admin/appeals", Admin, to!(admin::appeals::list)).with_query(params::<admin::appeals::AppealsQuery>).returns(schema::<admin::appeals::AppealsAnswer>).scope("admin:read"),
    get("/api/admin/appeals/{id}", Admin, to!(admin::appeals::get)).returns(schema::<admin::appeals::AppealDetail>).scope("admin:read"),
    patch("/api/admin/appeals/{id}", Admin, to!(admin::appeals::decide)).with_body(Body::Typed(schema::<admin::appeals::DecisionBody>)).returns(schema::<admin::appeals::DecisionAnswer>).scope("admin:moderate"),
    post("/api/admin/reports", User, to!(admin::reports::create::create)).with_body(Body::Typed(schema::<admin::reports::create::ReportBody>)).creates().returns(schema::<admin::reports::ReportAnswer>),
    get("/api/admin/reports", Admin, to!(admin::reports::list::list)).with_query(params::<paging::PageParams>).returns(schema::<admin::reports::list::ReportsAnswer>).scope("admin:read"),
    patch("/api/admin/reports/{id}", Admin, to!(admin::reports::review::review)).with_body(Body::Optional(schema::<admin::reports::review::ReviewBody>)).returns(schema::<admin::reports::review::ReviewAnswer>).scope("admin:moderate"),
    get("/api/admin/reports/{id}", User, to!(admin::reports::get::get)).returns(schema::<admin::reports::get::ReportDetail>),
    post("/api/admin/replies/send-notification", Admin, to!(admin::reports::send_notification::send_notification)).with_body(Body::Typed(schema::<admin::reports::send_notification::NoticeBody>)).returns(schema::<admin::reports::send_notification::NoticeAnswer>),
    post("/api/admin/acknowledge-report/{id}", User, to!(admin::reports::acknowledge::acknowledge)).returns(schema::<admin::reports::ReportAnswer>),
    get("/api/admin/analytics", Admin, to!(admin::analytics::analytics)).with_query(params::<admin::analytics::AnalyticsQuery>).returns(schema::<admin::analytics::AnalyticsAnswer>).scope("admin:read"),
    get("/api/admin/download-csv", Admin, to!(admin::export::download)).creates(),
    get("/api/admin/email-status", Admin, to!(admin::email::statuses::email_status)).with_query(paged::<admin::email::statuses::StatusQuery>).returns(schema::<admin::email::statuses::AddressLogs>),
    get("/api/admin/email-suppressions", Admin, to!(newsletter::suppressions)).with_query(params::<newsletter::SuppressionQuery>).returns(schema::<newsletter::SuppressionListAnswer>),
    get("/api/admin/all-email-statuses", Admin, to!(admin::email::statuses::all_email_statuses)).with_query(paged::<admin::email::statuses::StatusQuery>).returns(schema::<admin::email::statuses::EmailLogs>),
    post("/api/admin/retry-failed-emails", Admin, to!(admin::email::retry::retry_failed_emails)).with_body(Body::Typed(schema::<admin::email::retry::RetryBody>)).accepts().returns(schema::<admin::email::retry::RetryQueued>),
    get("/api/admin/jobs/{id}", Admin, to!(admin::jobs::job)).returns(schema::<admin::jobs::JobAnswer>),
    post("/api/admin/reading-time", Admin, to!(admin::reading_time::reading_time)).with_body(Body::Typed(schema::<admin::reading_time::ReadingTimeBody>)).returns(schema::<admin::reading_time::ReadingTimeAnswer>),
    get("/api/admin/reading-details/{postId}", Admin, to!(admin::reading_details::reading_details)).returns(schema::<crate::services::analytics::ReadingDetails>),
    get("/api/notification/notifications", Optional, to!(notification::list::list)).with_query(params::<notification::list::ListQuery>).returns(schema::<notification::list::NotificationPageAnswer>),
    get("/api/notification/unread-count", Optional, to!(notification::unread_count::unread_count)).returns(schema::<answers::CountAnswer>),
    patch("/api/notification/mark-as-read/{id}", Optional, to!(notification::mark_read::mark_read)).returns(schema::<notification::NotificationAnswer>),
    patch("/api/notification/mark-as-read", Optional, to!(notification::mark_read::missing_id)),
    patch("/api/notification/mark-as-read/", Optional, to!(notification::mark_read::missing_id)),
    patch("/api/notification/mark-all-as-read", Optional, to!(notification::mark_all_read::mark_all_read)).returns(schema::<notification::mark_all_read::AllReadAnswer>),
    post("/api/notification/admin", Admin, to!(notification::admin::admin)).with_body(Body::Typed(schema::<notification::admin::AdminNoticeBody>)).creates().returns(schema::<notification::NotificationSentAnswer>),
    post("/api/notification/broadcast", Admin, to!(notification::broadcast::broadcast)).with_body(Body::Typed(schema::<notification::broadcast::BroadcastBody>)).accepts().returns(schema::<notification::broadcast::BroadcastAnswer>),
    post("/api/notification/reply", Optional, to!(notification::reply::reply)).with_body(Body::Typed(schema::<notification::reply::ReplyBody>)).creates().returns(schema::<notification::NotificationAnswer>),
    get("/api/notification/user/{userId}", Admin, to!(notification::history::history)).returns(schema::<notification::NotificationsAnswer>),
    get("/api/notification/user", Admin, to!(notification::history::missing_user)),
    get("/api/notification/user/", Admin, to!(notification::history::missing_user)),
    delete("/api/notification", Optional, to!(notification::delete::missing_id)),
    delete("/api/notification/", Optional, to!(notification::delete::missing_id)),
    delete("/api/notification/{id}", Optional, to!(notification::delete::delete)).returns(schema::<notification::delete::NoticeDeletedAnswer>),
    get("/api/bannerNotification/get-Notification", Optional, to!(banner::get_notifications::get_notifications)).with_query(params::<banner::get_notifications::BannerQuery>).returns(schema::<crate::services::banners::BannersAnswer>),
    get("/api/bannerNotification/dismissed/{id}", User, to!(banner::dismissed::dismissed)).returns(schema::<banner::dismissed::DismissedAnswer>),
    post("/api/bannerNotification/create", Admin, to!(banner::create::create)).with_body(Body::Typed(schema::<banner::create::CreateBody>)).creates().returns(schema::<banner::create::BannerCreatedAnswer>),
    patch("/api/bannerNotification/dismiss/{id}", User, to!(banner::dismiss::dismiss)).returns(schema::<crate::services::banners::BannerIdAnswer>),
    patch("/api/bannerNotification/deactivate/{id}", Admin, to!(banner::deactivate::deactivate)).returns(schema::<banner::deactivate::BannerDeactivatedAnswer>),
    delete("/api/bannerNotification/delete-all", Admin, to!(banner::delete_all::delete_all)).returns(schema::<answers::DeletedAnswer>),
    get("/api/dailyMail/daily-post-report", Admin, to!(daily_mail::report::report)).with_query(paged::<daily_mail::report::ReportQuery>).returns(schema::<daily_mail::report::MailReportAnswer>),
    get("/api/dailyMail/unsubscribe", Public, to!(daily_mail::unsubscribe::unsubscribe)).with_query(params::<daily_mail::unsubscribe::UnsubscribeQuery>),
    post("/api/dailyMail/unsubscribe", Public, to!(daily_mail::unsubscribe::unsubscribe)).with_query(params::<daily_mail::unsubscribe::UnsubscribeQuery>),
    get("/api/newsletter/confirm", Public, to!(newsletter::confirm)).with_query(params::<newsletter::TokenQuery>),
    post("/api/newsletter/confirm", Public, to!(newsletter::confirm)).with_query(params::<newsletter::TokenQuery>),
    get("/api/newsletter/unsubscribe", Public, to!(newsletter::unsubscribe)).with_query(params::<newsletter::TokenQuery>),
    post("/api/newsletter/unsubscribe", Public, to!(newsletter::unsubscribe)).with_query(params::<newsletter::TokenQuery>),
    post("/api/newsletter/{authorId}/subscribe", Public, to!(newsletter::subscribe)).with_body(Body::Typed(schema::<newsletter::SubscribeBody>)).returns(schema::<newsletter::SubscribeAnswer>),
    post("/api/subscription/plans", User, to!(subscription::plans::create)).with_body(Body::Typed(schema::<subscription::plans::PlanBody>)).creates().returns(schema::<subscription::PlanAnswer>),
    get("/api/subscription/plans/author/{authorId}", Optional, to!(subscription::lists::author_plans)).returns(schema::<subscription::PlansAnswer>),
    patch("/api/subscription/plans/{id}", User, to!(subscription::plans::update)).with_body(Body::Typed(schema::<subscription::plans::PlanChangeBody>)).creates().returns(schema::<subscription::PlanAnswer>),
    delete("/api/subscription/plans/{id}", User, to!(subscription::plans::delete)).creates().returns(schema::<subscription::PlanAnswer>),
    post("/api/subscription/plans/{id}/activate", User, to!(subscription::plans::activate)).creates().returns(schema::<subscription::PlanAnswer>),
    get("/api/subscription/plans/{id}/analytics", User, to!(subscription::analytics::analytics)).returns(schema::<subscription::analytics::PlanAnalytics>).scope("read:stats"),
    // The handler reads the bearer token itself, to answer 401 'Missing authentication token'.
    post("/api/subscription/subscribe", User, to!(subscription::subscribe::subscribe)).with_body(Body::Typed(schema::<subscription::subscribe::SubscribeBody>)).creates().returns(schema::<subscription::subscribe::SubscribeAnswer>),
    patch("/api/subscription/subscriptions/{id}/cancel", User, to!(subscription::cancel::cancel)).returns(schema::<subscription::SubscriptionAnswer>),
    patch("/api/subscription/subscriptions/{id}/refund", User, to!(subscription::refund::refund)).with_body(Body::Typed(schema::<subscription::refund::RefundBody>)).returns(schema::<subscription::refund::RefundAnswer>),
    post("/api/subscription/status", User, to!(subscription::status::status)).with_body(Body::Typed(schema::<subscription::ReaderAuthorBody>)).returns(schema::<subscription::status::StatusAnswer>),
    post("/api/subscription/reminders", Admin, to!(subscription::reminders::reminders)).returns(schema::<subscription::reminders::RemindersAnswer>),
    get("/api/subscription/my-plans", User, to!(subscription::lists::my_plans)).with_query(params::<subscription::lists::ListSwitches>).returns(schema::<subscription::OwnPlansAnswer>).scope("read:subscribers"),
    post("/api/subscription/unsubscribe/author", User, to!(subscription::unsubscribe_author::unsubscribe_author)).with_body(Body::Typed(schema::<subscription::ReaderAuthorBody>)).returns(schema::<subscription::unsubscribe_author::UnsubscribeAnswer>),
    get("/api/subscription/author/{authorId}/subscriptions", User, to!(subscription::lists::author_subscriptions)).returns(schema::<subscription::lists::SubscriptionsAnswer>).scope("read:subscribers"),
    get("/api/subscription/my-subscriptions", User, to!(subscription::lists::my_subscriptions)).with_query(params::<subscription::lists::ListSwitches>).returns(schema::<subscription::lists::MySubscriptionsAnswer>),
    get("/api/subscription/private-feed/{authorId}", User, to!(subscription::private_feed::get)).returns(schema::<subscription::private_feed::PrivateFeedAnswer>),
    delete("/api/subscription/private-feed/{authorId}", User, to!(subscription::private_feed::remove)).returns(schema::<answers::MessageAnswer>),
    post("/api/subscription/private-feed/{authorId}/reset", User, to!(subscription::private_feed::reset)).returns(schema::<subscription::private_feed::PrivateFeedAnswer>),
    get("/api/subscription/check-eligibility", User, to!(subscription::check_eligibility::check_eligibility)).returns(schema::<crate::services::billing::eligibility::EligibilityView>),
    get("/api/earning/admin/earnings", Admin, to!(earning::earnings::earnings)).with_query(params::<paging::PageParams>).returns(schema::<earning::earnings::EarningsAnswer>),
    post("/api/earning/admin/payouts", Admin, to!(earning::payouts::payouts)).with_body(Body::Typed(schema::<earning::payouts::PayoutsBody>)).returns(schema::<earning::payouts::PayoutsAnswer>),
    get("/api/earning/my-earnings", User, to!(earning::my_earnings::my_earnings)).with_query(params::<paging::PageParams>).returns(schema::<earning::my_earnings::MyEarningsAnswer>).scope("read:earnings"),
    post("/api/payment/bank-details", User, to!(payment::bank_details::create)).with_body(Body::Typed(schema::<payment::bank_details::BankDetailsBody>)).creates().returns(schema::<payment::bank_details::BankDetailsAnswer>),
    get("/api/payment/bank-details", User, to!(payment::bank_details::get)).with_query(params::<payment::bank_details::UserQuery>).creates().returns(schema::<payment::bank_details::BankDetailsFetched>),
    patch("/api/payment/bank-details/{id}", User, to!(payment::bank_details::update)).with_body(Body::Typed(schema::<payment::bank_details::BankDetailsChangeBody>)).creates().returns(schema::<payment::bank_details::BankDetailsAnswer>),
    delete("/api/payment/bank-details/{id}", User, to!(payment::bank_details::delete)).creates().returns(schema::<payment::bank_details::BankDetailsRemoved>),
    post("/api/payment/webhook", Public, to!(payment::webhook::webhook)).returns(schema::<payment::webhook::WebhookAnswer>),
    post("/api/tips", User, to!(tip::give::give)).with_body(Body::Typed(schema::<tip::body::TipBody>)).creates().returns(schema::<tip::give::TipAnswer>),
    get("/api/tips/options/{postId}", Optional, to!(tip::manage::options)).returns(schema::<tip::manage::TipOptions>),
    get("/api/tips/settings", User, to!(tip::manage::get_settings)).returns(schema::<tip::manage::TipSettingsAnswer>),
    put("/api/tips/settings", User, to!(tip::manage::put_settings)).with_body(Body::Typed(schema::<tip::manage::TipSettingsBody>)).returns(schema::<tip::manage::TipSettingsAnswer>),
    get("/api/tips/received", User, to!(tip::lists::received)).with_query(params::<paging::PageParams>).returns(schema::<tip::lists::TipsAnswer>).scope("read:earnings"),
    get("/api/tips/sent", User, to!(tip::lists::sent)).with_query(params::<paging::PageParams>).returns(schema::<tip::lists::TipsAnswer>),
    patch("/api/tips/{id}", User, to!(tip::manage::hide)).with_body(Body::Typed(schema::<tip::manage::HideBody>)).returns(schema::<tip::manage::TipChanged>),
    post("/api/tips/{id}/refund", User, to!(tip::manage::refund)).with_body(Body::Typed(schema::<tip::manage::TipRefundBody>)).returns(schema::<tip::manage::TipRefundAnswer>),
    get("/api/geojson/india-border", Public, to!(geojson::india_border::india_border)),
    get("/api/geojson/world", Public, to!(geojson::world::world)),
    get("/api/config/public", Public, to!(public_config::public_config)).returns(schema::<public_config::PublicConfigAnswer>),
    get("/api/openapi.json", Public, to!(api_document::serve)).returns(schema::<ApiDocument>),
    get("/media/{name}", Public, to!(media::serve)).and_head(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_is_declared_once() {
        let mut seen = std::collections::HashSet::new();
        for route in ROUTES {
            assert!(
                seen.insert((route.method, route.path)),
                "{} {} is declared twice",
                route.method,
                route.path
            );
        }
    }

    #[test]
    fn no_route_is_shadowed_by_an_earlier_pattern() {
        // Actix tries routes in registration (table) order: a pattern listed before a route of the
        // same method that it matches would answer in its place.
        for (j, later) in ROUTES.iter().enumerate() {
            for earlier in &ROUTES[..j] {
                assert!(
                    earlier.method != later.method
                        || earlier.path == later.path
                        || !path_matches(earlier.path, later.path),
                    "{} {} is listed before {} and would answer for it",
                    earlier.method,
                    earlier.path,
                    later.path
                );
            }
        }
    }

    #[actix_web::test]
    async fn every_route_reaches_its_handler() {
        // Without the application state a handler answers 500 (or what it answers without one);
        // only a route that is not registered answers the `api_not_found` 404 or 405.
        let app =
            actix_web::test::init_service(actix_web::App::new().configure(super::super::configure))
                .await;
        for route in ROUTES {
            let uri = route
                .path
                .split('/')
                .map(|seg| if seg.starts_with('{') { "x1" } else { seg })
                .collect::<Vec<_>>()
                .join("/");
            let req = actix_web::test::TestRequest::default()
                .method(method(route.method))
                .uri(&uri)
                .to_request();
            let res = actix_web::test::call_service(&app, req).await;
            let status = res.status();
            let body = actix_web::test::read_body(res).await;
            let body = String::from_utf8_lossy(&body);
            assert!(
                status != actix_web::http::StatusCode::METHOD_NOT_ALLOWED
                    && !body.contains("No such endpoint"),
                "{} {uri} is not routed: {status} {body}",
                route.method
            );
        }
    }
}
