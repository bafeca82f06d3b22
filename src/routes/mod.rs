//! The whole route table.

pub mod auth;
pub mod health;
pub mod public_config;
pub mod user;
pub mod web_app;

use actix_web::web;

use crate::error::json_error;

/// Registers every route under `/api` plus `/health`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/health", web::get().to(health::health)).service(
        web::scope("/api")
            .service(
                web::scope("/auth")
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
                    .route("/logout", web::post().to(auth::logout::logout)),
            )
            .service(
                web::scope("/user")
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
                    .route("/online", web::get().to(user::online::online)),
            )
            .route(
                "/config/public",
                web::get().to(public_config::public_config),
            )
            .default_service(web::to(api_not_found)),
    );
}

async fn api_not_found(req: actix_web::HttpRequest) -> actix_web::HttpResponse {
    let status = actix_web::http::StatusCode::NOT_FOUND;
    json_error(
        status,
        "not_found",
        &format!("No such endpoint: {} {}", req.method(), req.path()),
    )
}
