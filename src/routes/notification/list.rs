//! `GET /api/notification/notifications?page&limit&type` (limit 20) → {notifications, total,
//! page, totalPages, unreadCount}: the caller's notifications, newest first. `type` narrows the
//! list on the server, so every page and the total agree with the filter: `admin` (administrator
//! notices and replies), `post` (everything about the caller's posts: likes, bookmarks, comments,
//! replies, appeals) or one kind by name (`like`, `admin_reply`, ...). `unreadCount` is always
//! over every kind.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{signed_in, DEFAULT_LIMIT, MAX_LIMIT};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::routes::paging::PageQuery;
use crate::services::inbox::{self, Kind};
use crate::services::notifications::NotificationView;
use crate::state::AppState;

pub const MSG_BAD_TYPE: &str =
    "type must be admin, post, or one of like, bookmark, comment, reply, admin_reply, appeal";

/// The list's query: a page and an optional kind filter.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    pub page: Option<i64>,
    pub limit: Option<i64>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
}

/// The kinds a `type` filter keeps; empty for no filter.
pub fn kinds_of(filter: Option<&str>) -> ApiResult<Vec<Kind>> {
    let Some(filter) = filter.map(str::trim).filter(|f| !f.is_empty()) else {
        return Ok(Vec::new());
    };
    let kinds: Vec<Kind> = match filter {
        "admin" => Kind::ALL
            .into_iter()
            .filter(|k| k.is_from_admin())
            .collect(),
        "post" => Kind::ALL
            .into_iter()
            .filter(|k| !k.is_from_admin())
            .collect(),
        name => Kind::ALL
            .into_iter()
            .filter(|k| k.as_str() == name)
            .collect(),
    };
    if kinds.is_empty() {
        return Err(ApiError::bad_request(MSG_BAD_TYPE));
    }
    Ok(kinds)
}

/// `{notifications, total, page, totalPages, unreadCount}`: one page of the caller's
/// notifications, newest first.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationPageAnswer {
    notifications: Vec<NotificationView>,
    total: u64,
    page: u64,
    total_pages: u64,
    unread_count: u64,
}

#[tracing::instrument(skip_all)]
pub async fn list(
    state: web::Data<AppState>,
    user: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let me = signed_in(user)?;
    let query = query.into_inner();
    let kinds = kinds_of(query.kind.as_deref())?;
    let page = PageQuery {
        page: query.page,
        limit: query.limit,
    };
    let (page, limit, skip) = page.resolve(DEFAULT_LIMIT, MAX_LIMIT);
    let (notifications, total, unread) = inbox::page(&state, &me, &kinds, skip, limit).await?;
    Ok(HttpResponse::Ok().json(NotificationPageAnswer {
        notifications,
        total,
        page,
        total_pages: total.div_ceil(limit as u64),
        unread_count: unread,
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn kind_names_are_the_wire_names() {
        for kind in Kind::ALL {
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                json!(kind.as_str()),
                "case {kind:?}"
            );
        }
    }

    #[test]
    fn admin_and_post_split_every_kind_between_them() {
        let admin = kinds_of(Some("admin")).unwrap();
        let post = kinds_of(Some("post")).unwrap();
        assert_eq!(admin, vec![Kind::Admin, Kind::AdminReply]);
        assert_eq!(
            post,
            vec![
                Kind::Like,
                Kind::Bookmark,
                Kind::Comment,
                Kind::Reply,
                Kind::Appeal,
                Kind::Subscription,
                Kind::NewPost,
                Kind::Tip
            ]
        );
        assert_eq!(kinds_of(Some("like")).unwrap(), vec![Kind::Like]);
        assert!(kinds_of(None).unwrap().is_empty());
        assert!(kinds_of(Some(" ")).unwrap().is_empty());
    }

    #[test]
    fn an_unknown_type_is_refused() {
        for bad in ["Admin", "posts", "all", "$ne"] {
            assert_eq!(
                kinds_of(Some(bad)).unwrap_err().to_string(),
                MSG_BAD_TYPE,
                "case {bad}"
            );
        }
    }
}
