//! The whole route table.

pub mod achievement;
pub mod admin;
pub mod answers;
pub mod auth;
pub mod banner;
pub mod block;
pub mod category;
pub mod comment;
pub mod daily_mail;
pub mod earning;
pub mod follow;
pub mod geojson;
pub mod health;
pub mod media;
pub mod metrics;
pub mod newsletter;
pub mod notification;
pub mod openapi;
pub mod payment;
pub mod post;
pub mod public;
pub mod public_config;
pub mod site;
pub mod subscription;
pub mod user;
pub mod web_app;

use actix_web::middleware::from_fn;
use actix_web::web;

use crate::error::json_error;

/// Registers every route under `/api` plus `/health` and `/metrics`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/health")
            .route(web::get().to(health::health))
            .default_service(web::to(api_not_found)),
    )
    .service(
        web::resource("/metrics")
            .route(web::get().to(metrics::metrics))
            .default_service(web::to(api_not_found)),
    )
    .service(
        web::scope("/api")
            // Before any `/follow` scope, which would otherwise answer 404 for it.
            .route(
                "/follow/follower-locations",
                web::get().to(follow::follower_locations::follower_locations),
            )
            .service(
                web::scope("/auth")
                    .default_service(web::to(api_not_found))
                    .route("/signup", web::post().to(auth::signup::signup))
                    .route("/login", web::post().to(auth::login::login))
                    .route(
                        "/google-login",
                        web::post().to(auth::google_login::google_login),
                    )
                    .route(
                        "/send-verify-otp",
                        web::post().to(auth::send_verify_otp::send_verify_otp),
                    )
                    .route(
                        "/verify-email",
                        web::post().to(auth::verify_email::verify_email),
                    )
                    .route(
                        "/send-reset-otp",
                        web::post().to(auth::send_reset_otp::send_reset_otp),
                    )
                    .route(
                        "/verify-reset-otp",
                        web::post().to(auth::verify_reset_otp::verify_reset_otp),
                    )
                    .route(
                        "/reset-password",
                        web::post().to(auth::reset_password::reset_password),
                    )
                    .route("/check", web::get().to(auth::check::check))
                    .route("/logout", web::post().to(auth::logout::logout))
                    .route("/logout-all", web::post().to(auth::logout_all::logout_all))
                    .route("/sessions", web::get().to(auth::sessions::list))
                    .route("/sessions/{id}", web::delete().to(auth::sessions::end))
                    .route("/reauth", web::post().to(auth::reauth::reauth))
                    .route("/2fa", web::get().to(auth::two_factor::status))
                    .route("/2fa/setup", web::post().to(auth::two_factor::setup))
                    .route("/2fa/enable", web::post().to(auth::two_factor::enable))
                    .route("/2fa/disable", web::post().to(auth::two_factor::disable))
                    .route(
                        "/2fa/recovery-codes",
                        web::post().to(auth::two_factor::recovery_codes),
                    )
                    .route("/2fa/verify", web::post().to(auth::two_factor::verify))
                    .route(
                        "/change-password",
                        web::post().to(auth::change_password::change_password),
                    ),
            )
            .service(
                web::scope("/user")
                    .default_service(web::to(api_not_found))
                    .route("/get-user", web::get().to(user::get_user::get_user))
                    .route(
                        "/update-user",
                        web::patch().to(user::update_user::update_user),
                    )
                    .route(
                        "/get-single-user/{id}",
                        web::get().to(user::get_single_user::get_single_user),
                    )
                    .route("/consent", web::post().to(user::consent::consent))
                    .route("/export", web::post().to(user::export::start))
                    .route("/export", web::get().to(user::export::list))
                    .route(
                        "/export/{id}/download",
                        web::get().to(user::export::download),
                    )
                    .route(
                        "/delete-account",
                        web::post().to(user::delete_account::delete_account),
                    )
                    .route("/online", web::get().to(user::online::online))
                    .route(
                        "/ip-location",
                        web::get().to(user::ip_location::ip_location),
                    )
                    .route(
                        "/track-ip-location",
                        web::post().to(user::track_ip_location::track_ip_location),
                    )
                    .route(
                        "/save-location",
                        web::post().to(user::save_location::save_location),
                    )
                    .route("/locations", web::get().to(user::locations::locations))
                    .route(
                        "/feedback/check",
                        web::get().to(user::feedback_check::feedback_check),
                    )
                    .route(
                        "/feedback/submit",
                        web::post().to(user::feedback_submit::feedback_submit),
                    )
                    .route(
                        "/feedback/all",
                        web::get().to(user::feedback_all::feedback_all),
                    )
                    .route(
                        "/feedback/manual/{userId}",
                        web::post().to(user::feedback_manual::feedback_manual),
                    )
                    .route(
                        "/activity/clear",
                        web::delete().to(user::activity_clear::clear),
                    )
                    .route(
                        "/activity/clear-old",
                        web::delete().to(user::activity_clear::clear_old),
                    )
                    .route(
                        "/activity/{id}",
                        web::get().to(user::activity::get_activity),
                    )
                    // User management (seed 000 §7), served by the admin implementation.
                    .route("/get-all-user", web::get().to(admin::users::list::list))
                    .route(
                        "/delete-user",
                        web::delete().to(admin::users::delete::delete_by_body),
                    )
                    .route(
                        "/toggle-block/{id}",
                        web::patch().to(admin::users::block::toggle_block),
                    )
                    .route(
                        "/toggle-role/{id}",
                        web::patch().to(admin::users::role::toggle_role),
                    ),
            )
            .service(
                web::scope("/category")
                    .default_service(web::to(api_not_found))
                    .route("", web::post().to(category::create::create))
                    .route("/", web::post().to(category::create::create))
                    .route(
                        "/all-category",
                        web::get().to(category::all_category::all_category),
                    )
                    .route(
                        "/user-selected",
                        web::get().to(category::user_selected::user_selected),
                    )
                    .route(
                        "/check-slug",
                        web::get().to(category::check_slug::check_slug),
                    )
                    .route("/seed", web::post().to(category::seed::seed))
                    .route(
                        "/users/{userId}/categories",
                        web::post().to(category::assign::assign),
                    )
                    .route("/{id}", web::patch().to(category::update::update))
                    .route("/{id}", web::delete().to(category::delete::delete)),
            )
            .service(
                // Single-segment GETs fall through to `/{slug}`: keep it last.
                web::scope("/post")
                    .default_service(web::to(api_not_found))
                    .route("/post-create", web::post().to(post::create::create))
                    .route("/update/{slug}", web::patch().to(post::update::update))
                    .route("/delete/{postId}", web::delete().to(post::delete::delete))
                    .route("/appeal/{postId}", web::post().to(post::appeal::appeal))
                    .route(
                        "/public/posts",
                        web::get().to(post::public_posts::public_posts),
                    )
                    .route("/public/{slug}", web::get().to(post::get_post::get_post))
                    .route("/latest-post/latest", web::get().to(post::latest::latest))
                    .route(
                        "/trending-post/trending",
                        web::get().to(post::trending::trending),
                    )
                    .route("/search-post/search", web::get().to(post::search::search))
                    .route(
                        "/search-users",
                        web::get().to(post::search_users::search_users),
                    )
                    .route("/all-post", web::get().to(post::all_posts::all_posts))
                    .route("/following", web::get().to(post::following::following))
                    .route(
                        "/user/{userId}/posts",
                        web::get().to(post::user_posts::user_posts),
                    )
                    .route("/count/all", web::get().to(post::count::count_all))
                    .route("/count/my", web::get().to(post::count::count_my))
                    .route(
                        "/count/following",
                        web::get().to(post::count::count_following),
                    )
                    .route("/like/{postId}", web::post().to(post::like::like))
                    .route(
                        "/bookmark/{postId}",
                        web::post().to(post::bookmark::bookmark),
                    )
                    .route(
                        "/bookmark-status/{postId}",
                        web::get().to(post::bookmark_status::bookmark_status),
                    )
                    .route(
                        "/get-post/bookmarks",
                        web::get().to(post::bookmarks::bookmarked_posts),
                    )
                    .route("/view/{slug}", web::post().to(post::view::view))
                    .route(
                        "/time-spent/{postId}",
                        web::post().to(post::time_spent::time_spent),
                    )
                    .route("/vote", web::post().to(post::vote::vote))
                    .route(
                        "/suggested-post/suggested",
                        web::get().to(post::suggested::suggested),
                    )
                    // Refusals carry `error` as well as `message` (seed 001 §8).
                    .service(
                        web::resource("/analytics/post/{id}")
                            .wrap(from_fn(crate::middleware::error_field))
                            .route(web::get().to(post::analytics_post::post_analytics)),
                    )
                    .route("/delivery/{id}", web::get().to(post::delivery::delivery))
                    .service(
                        web::resource("/analytics/user-engagement")
                            .wrap(from_fn(crate::middleware::error_field))
                            .route(web::get().to(post::analytics_user::user_engagement)),
                    )
                    .route("/{postId}/share", web::post().to(post::share::share))
                    .route("/{slug}", web::get().to(post::get_post::get_post)),
            )
            .service(
                web::scope("/public")
                    .default_service(web::to(api_not_found))
                    .route("/posts", web::get().to(public::posts::posts))
                    .route("/post/{slug}", web::get().to(post::get_post::get_post))
                    .route(
                        "/search-posts",
                        web::get().to(public::search_posts::search_posts),
                    )
                    .route(
                        "/guest/visit",
                        web::post().to(public::guest_visit::guest_visit),
                    )
                    .route("/post/{slug}/view", web::post().to(public::view::view)),
            )
            .service(
                web::scope("/comment")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/add-comment/{postId}",
                        web::post().to(comment::add::add_comment),
                    )
                    .route(
                        "/all-comments/{postId}",
                        web::get().to(comment::all::all_comments),
                    )
                    .route(
                        "/reaction/{commentId}",
                        web::post().to(comment::reaction::reaction),
                    )
                    .route("/edit/{commentId}", web::put().to(comment::edit::edit))
                    .route("/block/{commentId}", web::put().to(comment::block::block))
                    .route(
                        "/delete/{commentId}",
                        web::delete().to(comment::delete::delete),
                    ),
            )
            .service(
                // `/follow/follower-locations` is registered above, before this scope.
                web::scope("/follow")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/unfollow/{userId}",
                        web::post().to(follow::unfollow::unfollow),
                    )
                    .route("/followers", web::get().to(follow::list::followers))
                    .route("/following", web::get().to(follow::list::following))
                    .route("/status/{userId}", web::get().to(follow::status::status))
                    .route(
                        "/alerts/{authorId}",
                        web::put().to(follow::alerts::set_alerts),
                    )
                    .route("/{userId}", web::post().to(follow::follow_user::follow)),
            )
            .service(
                web::scope("/block")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/block-user/{id}",
                        web::post().to(block::block_user::block_user),
                    )
                    .route("/unblock", web::post().to(block::unblock::unblock))
                    .route("/list", web::get().to(block::list::list)),
            )
            .service(
                web::scope("/achievement")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/achievements",
                        web::get().to(achievement::achievements::achievements),
                    )
                    .route(
                        "/achievements/calculate",
                        web::post().to(achievement::calculate::calculate),
                    ),
            )
            .service(
                // Before `/admin`, whose scope would otherwise answer 404 for these.
                web::scope("/admin/subscriptions")
                    .default_service(web::to(api_not_found))
                    .route("/plans", web::get().to(admin::subscriptions::plans::list))
                    .route(
                        "/eligibility/toggle",
                        web::post().to(admin::subscriptions::eligibility::toggle),
                    )
                    .route(
                        "/criteria",
                        web::patch().to(admin::subscriptions::criteria::update),
                    )
                    .route(
                        "/eligibility/{userId}",
                        web::get().to(admin::subscriptions::eligibility::check),
                    )
                    .route(
                        "/plan/status",
                        web::patch().to(admin::subscriptions::plans::set_status),
                    )
                    .route(
                        "/grant",
                        web::post().to(admin::subscriptions::eligibility::grant),
                    )
                    .route(
                        "/user-override/{userId}",
                        web::patch().to(admin::subscriptions::eligibility::user_override),
                    )
                    .route(
                        "/user-milestone/{userId}",
                        web::patch().to(admin::subscriptions::milestones::set_override),
                    )
                    .route(
                        "/user-milestone-reset/{userId}",
                        web::patch().to(admin::subscriptions::milestones::reset),
                    ),
            )
            .service(
                web::scope("/admin")
                    .default_service(web::to(api_not_found))
                    .route("/users", web::get().to(admin::users::list::list))
                    .route(
                        "/users/block/{id}",
                        web::patch().to(admin::users::block::toggle_block),
                    )
                    .route(
                        "/users/role/{id}",
                        web::patch().to(admin::users::role::toggle_role),
                    )
                    .route(
                        "/users/{id}",
                        web::delete().to(admin::users::delete::delete_by_path),
                    )
                    .route("/posts", web::get().to(admin::posts::list::list))
                    .route(
                        "/posts/block/{id}",
                        web::patch().to(admin::block_post::block_post),
                    )
                    .route(
                        "/posts/{id}",
                        web::delete().to(admin::posts::delete::delete),
                    )
                    .route("/audit-log", web::get().to(admin::audit_log::audit_log))
                    .route("/settings", web::get().to(admin::settings::get))
                    .route("/settings", web::patch().to(admin::settings::update))
                    .route("/overview", web::get().to(admin::overview::overview))
                    .route("/contact", web::post().to(admin::contact::create::create))
                    .route(
                        "/contact-messages",
                        web::get().to(admin::contact::list::list),
                    )
                    .route(
                        "/contact-messages/{id}/handled",
                        web::patch().to(admin::contact::handled::toggle_handled),
                    )
                    .route(
                        "/reply-contact/{id}",
                        web::post().to(admin::contact::reply::reply),
                    )
                    .route("/reports", web::post().to(admin::reports::create::create))
                    .route("/reports", web::get().to(admin::reports::list::list))
                    .route(
                        "/reports/{id}",
                        web::patch().to(admin::reports::review::review),
                    )
                    .route("/reports/{id}", web::get().to(admin::reports::get::get))
                    .route(
                        "/replies/send-notification",
                        web::post().to(admin::reports::send_notification::send_notification),
                    )
                    .route(
                        "/acknowledge-report/{id}",
                        web::post().to(admin::reports::acknowledge::acknowledge),
                    )
                    .route("/analytics", web::get().to(admin::analytics::analytics))
                    .route("/download-csv", web::get().to(admin::export::download))
                    .route(
                        "/email-status",
                        web::get().to(admin::email::statuses::email_status),
                    )
                    .route(
                        "/email-suppressions",
                        web::get().to(newsletter::suppressions),
                    )
                    .route(
                        "/all-email-statuses",
                        web::get().to(admin::email::statuses::all_email_statuses),
                    )
                    .route(
                        "/retry-failed-emails",
                        web::post().to(admin::email::retry::retry_failed_emails),
                    )
                    .route("/jobs/{id}", web::get().to(admin::jobs::job))
                    .route(
                        "/reading-time",
                        web::post().to(admin::reading_time::reading_time),
                    )
                    .route(
                        "/reading-details/{postId}",
                        web::get().to(admin::reading_details::reading_details),
                    ),
            )
            .service(
                web::scope("/notification")
                    .default_service(web::to(api_not_found))
                    .route("/notifications", web::get().to(notification::list::list))
                    .route(
                        "/unread-count",
                        web::get().to(notification::unread_count::unread_count),
                    )
                    .route(
                        "/mark-as-read/{id}",
                        web::patch().to(notification::mark_read::mark_read),
                    )
                    .route(
                        "/mark-as-read",
                        web::patch().to(notification::mark_read::missing_id),
                    )
                    .route(
                        "/mark-as-read/",
                        web::patch().to(notification::mark_read::missing_id),
                    )
                    .route(
                        "/mark-all-as-read",
                        web::patch().to(notification::mark_all_read::mark_all_read),
                    )
                    .route("/admin", web::post().to(notification::admin::admin))
                    .route(
                        "/broadcast",
                        web::post().to(notification::broadcast::broadcast),
                    )
                    .route("/reply", web::post().to(notification::reply::reply))
                    .route(
                        "/user/{userId}",
                        web::get().to(notification::history::history),
                    )
                    .route("/user", web::get().to(notification::history::missing_user))
                    .route("/user/", web::get().to(notification::history::missing_user))
                    .route("", web::delete().to(notification::delete::missing_id))
                    .route("/", web::delete().to(notification::delete::missing_id))
                    .route("/{id}", web::delete().to(notification::delete::delete)),
            )
            .service(
                web::scope("/bannerNotification")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/get-Notification",
                        web::get().to(banner::get_notifications::get_notifications),
                    )
                    .route(
                        "/dismissed/{id}",
                        web::get().to(banner::dismissed::dismissed),
                    )
                    .route("/create", web::post().to(banner::create::create))
                    .route("/dismiss/{id}", web::patch().to(banner::dismiss::dismiss))
                    .route(
                        "/deactivate/{id}",
                        web::patch().to(banner::deactivate::deactivate),
                    )
                    .route(
                        "/delete-all",
                        web::delete().to(banner::delete_all::delete_all),
                    ),
            )
            .service(
                web::scope("/dailyMail")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/daily-post-report",
                        web::get().to(daily_mail::report::report),
                    )
                    .route(
                        "/unsubscribe",
                        web::get().to(daily_mail::unsubscribe::unsubscribe),
                    )
                    .route(
                        "/unsubscribe",
                        web::post().to(daily_mail::unsubscribe::unsubscribe),
                    ),
            )
            .service(
                web::scope("/newsletter")
                    .default_service(web::to(api_not_found))
                    .route("/confirm", web::get().to(newsletter::confirm))
                    .route("/confirm", web::post().to(newsletter::confirm))
                    .route("/unsubscribe", web::get().to(newsletter::unsubscribe))
                    .route("/unsubscribe", web::post().to(newsletter::unsubscribe))
                    .route(
                        "/{authorId}/subscribe",
                        web::post().to(newsletter::subscribe),
                    ),
            )
            .service(
                web::scope("/subscription")
                    .default_service(web::to(api_not_found))
                    .route("/plans", web::post().to(subscription::plans::create))
                    .route(
                        "/plans/author/{authorId}",
                        web::get().to(subscription::lists::author_plans),
                    )
                    .route("/plans/{id}", web::patch().to(subscription::plans::update))
                    .route("/plans/{id}", web::delete().to(subscription::plans::delete))
                    .route(
                        "/plans/{id}/activate",
                        web::post().to(subscription::plans::activate),
                    )
                    .route(
                        "/plans/{id}/analytics",
                        web::get().to(subscription::analytics::analytics),
                    )
                    .route(
                        "/subscribe",
                        web::post().to(subscription::subscribe::subscribe),
                    )
                    .route(
                        "/subscriptions/{id}/cancel",
                        web::patch().to(subscription::cancel::cancel),
                    )
                    .route(
                        "/subscriptions/{id}/refund",
                        web::patch().to(subscription::refund::refund),
                    )
                    .route("/status", web::post().to(subscription::status::status))
                    .route(
                        "/reminders",
                        web::post().to(subscription::reminders::reminders),
                    )
                    .route("/my-plans", web::get().to(subscription::lists::my_plans))
                    .route(
                        "/unsubscribe/author",
                        web::post().to(subscription::unsubscribe_author::unsubscribe_author),
                    )
                    .route(
                        "/author/{authorId}/subscriptions",
                        web::get().to(subscription::lists::author_subscriptions),
                    )
                    .route(
                        "/my-subscriptions",
                        web::get().to(subscription::lists::my_subscriptions),
                    )
                    .route(
                        "/private-feed/{authorId}",
                        web::get().to(subscription::private_feed::get),
                    )
                    .route(
                        "/private-feed/{authorId}",
                        web::delete().to(subscription::private_feed::remove),
                    )
                    .route(
                        "/private-feed/{authorId}/reset",
                        web::post().to(subscription::private_feed::reset),
                    )
                    .route(
                        "/check-eligibility",
                        web::get().to(subscription::check_eligibility::check_eligibility),
                    ),
            )
            .service(
                web::scope("/earning")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/admin/earnings",
                        web::get().to(earning::earnings::earnings),
                    )
                    .route("/admin/payouts", web::post().to(earning::payouts::payouts))
                    .route(
                        "/my-earnings",
                        web::get().to(earning::my_earnings::my_earnings),
                    ),
            )
            .service(
                web::scope("/payment")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/bank-details",
                        web::post().to(payment::bank_details::create),
                    )
                    .route("/bank-details", web::get().to(payment::bank_details::get))
                    .route(
                        "/bank-details/{id}",
                        web::patch().to(payment::bank_details::update),
                    )
                    .route(
                        "/bank-details/{id}",
                        web::delete().to(payment::bank_details::delete),
                    )
                    .route("/webhook", web::post().to(payment::webhook::webhook)),
            )
            .service(
                web::scope("/geojson")
                    .default_service(web::to(api_not_found))
                    .route(
                        "/india-border",
                        web::get().to(geojson::india_border::india_border),
                    )
                    .route("/world", web::get().to(geojson::world::world)),
            )
            .route(
                "/config/public",
                web::get().to(public_config::public_config),
            )
            .route("/openapi.json", web::get().to(openapi::openapi))
            .default_service(web::to(api_not_found)),
    )
    .service(
        web::resource("/media/{name}")
            .route(web::get().to(media::serve))
            .route(web::head().to(media::serve))
            .default_service(web::to(api_not_found)),
    );
}

/// Unrouted requests under `/api` (and wrong methods on `/health`, `/media`): 405 with `Allow` when the path exists for other methods, else 404.
async fn api_not_found(req: actix_web::HttpRequest) -> actix_web::HttpResponse {
    let allowed = openapi::methods_for(req.path());
    if !allowed.is_empty() {
        let mut res = json_error(
            actix_web::http::StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            &format!(
                "{} is not allowed on {}; use {}",
                req.method(),
                req.path(),
                allowed.join(", ")
            ),
        );
        if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&allowed.join(", ")) {
            res.headers_mut()
                .insert(actix_web::http::header::ALLOW, value);
        }
        return res;
    }
    json_error(
        actix_web::http::StatusCode::NOT_FOUND,
        "not_found",
        &format!("No such endpoint: {} {}", req.method(), req.path()),
    )
}
