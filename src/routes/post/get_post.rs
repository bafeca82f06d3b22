//! Reading one post by its slug: `GET /api/post/public/{slug}` (guests), `GET /api/post/{slug}`
//! (signed-in users; a guest gets the guest view) and `GET /api/public/post/{slug}` → {post}.
//! Posts the caller may not see answer 404 'Post not found', like posts that do not exist.
//! For a signed-in reader each poll block also carries their choice (`userVote`, `userVotes`),
//! so a vote stays marked after a reload. Served from the read index (slug map and stored card)
//! when it can answer.

use actix_web::{web, HttpResponse};

use super::PostAnswer;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::services::post_read::{self, PostRead};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn get_post(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    slug: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(
        match post_read::read(&state, viewer.0.as_ref(), &slug).await? {
            PostRead::Stored(post) => HttpResponse::Ok().json(PostAnswer { post }),
            PostRead::Shaped(post) => HttpResponse::Ok().json(PostAnswer::of(&post)?),
        },
    )
}
