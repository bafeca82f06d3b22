//! The lists of tips: `GET /api/tips/received` (the writer's, with the post each came for),
//! `GET /api/tips/sent` (the reader's, failed and refunded ones included) and the public
//! `GET /api/post/{id}/supporters` (readers who chose to be listed, newest first; a message the
//! writer hid reads `null`). Each `?page&limit` (10 by default).

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::post_view::iso;
use crate::routes::paging::PageParams;
use crate::services::billing::tip_admin::{page_of, supporters as supporters_of, Side};
use crate::services::billing::tip_view::TipView;
use crate::state::AppState;

/// `{tips, total, page, totalPages, limit}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipsAnswer {
    pub tips: Vec<TipView>,
    pub total: u64,
    pub page: u64,
    pub total_pages: u64,
    pub limit: i64,
}

async fn list(
    state: &AppState,
    me: &AuthUser,
    side: Side,
    query: &PageParams,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let (found, total) = page_of(state, me.user.id, side, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(TipsAnswer {
        tips: found.iter().map(TipView::of).collect(),
        total,
        page: paging.page,
        total_pages: paging.total_pages(total),
        limit: paging.limit,
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn received(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    list(&state, &me, Side::Received, &query).await
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn sent(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    list(&state, &me, Side::Sent, &query).await
}

/// A reader on a post's supporters list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SupporterUser {
    pub id: String,
    pub name: String,
    pub profile_picture: Option<String>,
}

/// One supporter: who, their message (null when hidden by the writer) and when.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Supporter {
    pub tip_id: String,
    pub user: SupporterUser,
    pub message: Option<String>,
    pub created_at: String,
}

/// `{supporters, total, page, totalPages, limit}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SupportersAnswer {
    pub supporters: Vec<Supporter>,
    pub total: u64,
    pub page: u64,
    pub total_pages: u64,
    pub limit: i64,
}

#[tracing::instrument(skip_all)]
pub async fn supporters(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let post = object_id(&path, "post id")?;
    let paging = query.resolve()?;
    let (found, total) = supporters_of(&state, post, paging.skip, paging.limit).await?;
    let supporters = found
        .iter()
        .filter_map(|l| {
            let (name, picture) = l.sender.clone()?;
            Some(Supporter {
                tip_id: l.tip.id.to_hex(),
                user: SupporterUser {
                    id: l.tip.sender_id.to_hex(),
                    name,
                    profile_picture: picture,
                },
                message: l.tip.message.clone().filter(|_| !l.tip.hidden),
                created_at: iso(l.tip.created_at),
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(SupportersAnswer {
        supporters,
        total,
        page: paging.page,
        total_pages: paging.total_pages(total),
        limit: paging.limit,
    }))
}
