//! Atom and RSS feeds of the site, an author, a tag and a category: the newest public posts, from
//! the read index, with `ETag`/`Last-Modified` and `304 Not Modified`. An unknown author, tag or
//! category answers 404.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use mongodb::bson::oid::ObjectId;

use super::pages::{category_of, tag_of};
use super::{decode_segment, guest_posts, site, validated};
use crate::error::{ApiError, ApiResult};
use crate::pages::head::{SITE_DESCRIPTION, SITE_NAME};
use crate::pages::model::{author_path, category_path, tag_path, PublicPost};
use crate::pages::syndication::{self, FeedInfo, ATOM_TYPE, FEED_LEN, RSS_TYPE};
use crate::persistence::users;
use crate::services::feed::Feed;
use crate::state::AppState;

/// Feeds are revalidated after five minutes at most.
const FEED_CACHE: &str = "public, max-age=300";
pub const MSG_FEED_NOT_FOUND: &str = "No such feed";

/// The two formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Atom,
    Rss,
}

impl Format {
    fn of(file: &str) -> Self {
        if file == "rss.xml" {
            Format::Rss
        } else {
            Format::Atom
        }
    }

    fn file(self) -> &'static str {
        match self {
            Format::Atom => "feed.xml",
            Format::Rss => "rss.xml",
        }
    }
}

/// Writes a feed and answers it with its validators.
pub fn answer(
    req: &HttpRequest,
    state: &AppState,
    format: Format,
    info: &FeedInfo,
    posts: &[PublicPost],
) -> HttpResponse {
    let site = site(state);
    let (body, content_type) = match format {
        Format::Atom => (syndication::atom(&site, info, posts), ATOM_TYPE),
        Format::Rss => (syndication::rss(&site, info, posts), RSS_TYPE),
    };
    let modified = syndication::last_modified(posts).with_timezone(&chrono::Utc);
    validated(
        req,
        StatusCode::OK,
        content_type,
        FEED_CACHE,
        body,
        Some(modified),
    )
}

async fn serve(
    req: &HttpRequest,
    state: &AppState,
    format: Format,
    list: Feed,
    title: String,
    description: String,
    page_path: String,
) -> ApiResult<HttpResponse> {
    let (posts, _) = guest_posts(state, &list, FEED_LEN).await?;
    let self_path = if page_path == "/" {
        format!("/{}", format.file())
    } else {
        format!("{page_path}/{}", format.file())
    };
    let info = FeedInfo {
        title,
        description,
        page_path,
        self_path,
    };
    Ok(answer(req, state, format, &info, &posts))
}

fn site_list() -> Feed {
    Feed::Public {
        tag: None,
        category: None,
    }
}

/// `GET /feed.xml`: the site's newest posts in Atom.
pub async fn site_atom(req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    serve(
        &req,
        &state,
        Format::Atom,
        site_list(),
        SITE_NAME.into(),
        SITE_DESCRIPTION.into(),
        "/".into(),
    )
    .await
}

/// `GET /rss.xml`: the same in RSS.
pub async fn site_rss(req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    serve(
        &req,
        &state,
        Format::Rss,
        site_list(),
        SITE_NAME.into(),
        SITE_DESCRIPTION.into(),
        "/".into(),
    )
    .await
}

/// `GET /author-profile/{id}/feed.xml` (or `rss.xml`).
pub async fn author(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (raw, file) = path.into_inner();
    let id = decode_segment(&raw)
        .and_then(|id| ObjectId::parse_str(id.trim()).ok())
        .ok_or_else(|| ApiError::not_found(MSG_FEED_NOT_FOUND))?;
    let user = users::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_FEED_NOT_FOUND))?;
    serve(
        &req,
        &state,
        Format::of(&file),
        Feed::Authors {
            authors: vec![id],
            category: None,
        },
        format!("{} – {SITE_NAME}", user.name),
        format!("Posts by {} on {SITE_NAME}", user.name),
        author_path(&id.to_hex()),
    )
    .await
}

/// `GET /tag/{tag}/feed.xml` (or `rss.xml`): a tag no public post has answers 404.
pub async fn tag(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (raw, file) = path.into_inner();
    let tag = tag_of(&raw).ok_or_else(|| ApiError::not_found(MSG_FEED_NOT_FOUND))?;
    let list = Feed::Public {
        tag: Some(tag.clone()),
        category: None,
    };
    let (posts, _) = guest_posts(&state, &list, FEED_LEN).await?;
    if posts.is_empty() {
        return Err(ApiError::not_found(MSG_FEED_NOT_FOUND));
    }
    let format = Format::of(&file);
    let page_path = tag_path(&tag);
    let info = FeedInfo {
        title: format!("#{tag} – {SITE_NAME}"),
        description: format!("Posts tagged #{tag} on {SITE_NAME}"),
        self_path: format!("{page_path}/{}", format.file()),
        page_path,
    };
    Ok(answer(&req, &state, format, &info, &posts))
}

/// `GET /category/{slug}/feed.xml` (or `rss.xml`).
pub async fn category(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (raw, file) = path.into_inner();
    let cat = category_of(&state, &raw)
        .await
        .map_err(|()| {
            ApiError::Unavailable(anyhow::anyhow!("the read index cannot look categories up"))
        })?
        .ok_or_else(|| ApiError::not_found(MSG_FEED_NOT_FOUND))?;
    serve(
        &req,
        &state,
        Format::of(&file),
        Feed::Public {
            tag: None,
            category: Some(cat.id),
        },
        format!("{} – {SITE_NAME}", cat.name),
        if cat.description.trim().is_empty() {
            format!("Posts in {} on {SITE_NAME}", cat.name)
        } else {
            cat.description.clone()
        },
        category_path(&cat.slug),
    )
    .await
}

pub const MSG_PRIVATE_FEED_GONE: &str = "This private feed is not available";

/// `GET /feeds/private/{reader}/{author}/{secret}.xml`: a paying reader's feed of an author, the
/// subscribers-only posts in full, while their subscription gives access. A wrong secret, a
/// replaced or removed feed, or an ended subscription answers 404 (the address says nothing of
/// why). Never cached by shared caches.
pub async fn private(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> ApiResult<HttpResponse> {
    let gone = || ApiError::not_found(MSG_PRIVATE_FEED_GONE);
    let (reader, author, file) = path.into_inner();
    let reader = ObjectId::parse_str(&reader).map_err(|_| gone())?;
    let author = ObjectId::parse_str(&author).map_err(|_| gone())?;
    let secret = file.strip_suffix(".xml").ok_or_else(gone)?;
    let feed = crate::persistence::subscriber_feeds::find(&state.db, reader, author)
        .await?
        .ok_or_else(gone)?;
    let same = feed.secret.len() == secret.len()
        && feed
            .secret
            .bytes()
            .zip(secret.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !same {
        return Err(gone());
    }
    let access =
        crate::persistence::subscriptions::authors_with_access(&state.db, reader, &[author])
            .await?;
    if !access.contains(&author) {
        return Err(gone());
    }
    let user = users::find_by_id(&state.db, author)
        .await?
        .ok_or_else(gone)?;
    let (mut posts, _) = guest_posts(
        &state,
        &Feed::Authors {
            authors: vec![author],
            category: None,
        },
        FEED_LEN,
    )
    .await?;
    open_locked(&state, &mut posts).await?;
    let info = FeedInfo {
        title: format!("{} (subscriber) – {SITE_NAME}", user.name),
        description: format!("Every post of {}, in full, for a subscriber", user.name),
        page_path: author_path(&author.to_hex()),
        self_path: req.path().to_string(),
    };
    let mut res = answer(&req, &state, Format::Atom, &info, &posts);
    res.headers_mut().insert(
        actix_web::http::header::CACHE_CONTROL,
        actix_web::http::header::HeaderValue::from_static("private, max-age=300"),
    );
    Ok(res)
}

/// Puts the locked posts' blocks (kept sealed in the index) in, for a reader who may read them.
async fn open_locked(state: &AppState, posts: &mut [PublicPost]) -> ApiResult<()> {
    let locked: Vec<ObjectId> = posts
        .iter()
        .filter(|p| p.locked)
        .filter_map(|p| ObjectId::parse_str(&p.id).ok())
        .collect();
    if locked.is_empty() {
        return Ok(());
    }
    let unavailable =
        |e: crate::redis_pool::RedisFailure| ApiError::Unavailable(anyhow::anyhow!("{e}"));
    let gen = state
        .feeds
        .current()
        .ok_or_else(|| unavailable(crate::redis_pool::RedisFailure::Down))?;
    let sealed = state
        .feeds
        .sealed_blocks(&gen, &locked)
        .await
        .map_err(|e| ApiError::Unavailable(anyhow::anyhow!("{e}")))?;
    for (id, blocks) in locked.iter().zip(sealed) {
        let Some(blocks) = blocks.and_then(|b| serde_json::from_str(&b).ok()) else {
            continue;
        };
        if let Some(post) = posts.iter_mut().find(|p| p.id == id.to_hex()) {
            post.blocks = blocks;
            post.locked = false;
        }
    }
    Ok(())
}

/// `GET /series/{slug}/feed.xml` (or `rss.xml`): the visible parts, newest first.
pub async fn series(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (raw, file) = path.into_inner();
    let (title, description, page_path, parts) = super::series::feed_of(&state, &raw)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_FEED_NOT_FOUND))?;
    let format = Format::of(&file);
    let info = FeedInfo {
        title,
        description,
        self_path: format!("{page_path}/{}", format.file()),
        page_path,
    };
    Ok(answer(&req, &state, format, &info, &parts))
}
