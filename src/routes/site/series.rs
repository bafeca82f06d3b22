//! A series for the outside world: its page (`/series/{slug}`), its Atom and RSS feeds
//! (`/series/{slug}/feed.xml`, `rss.xml`: the visible parts, newest first), and the place of a
//! part on its own page. Read from the store: a series is a handful of posts.

use super::decode_segment;
use crate::error::ApiResult;
use crate::pages::model::{series_path, PublicPost};
use crate::pages::series::{series_page, SeriesInfo};
use crate::pages::shell::Page;
use crate::persistence::series::{self as store, Series};
use crate::persistence::user_directory;
use crate::services::series::visible_parts;
use crate::state::AppState;

/// The series a path segment names by slug.
async fn named(state: &AppState, raw: &str) -> ApiResult<Option<Series>> {
    let Some(slug) = decode_segment(raw) else {
        return Ok(None);
    };
    Ok(store::find_by_slug(&state.db, slug.trim()).await?)
}

/// The visible parts in order, as guests see them (subscriber-only parts as teasers).
async fn public_parts(state: &AppState, series: &Series) -> ApiResult<Vec<PublicPost>> {
    let parts: Vec<_> = visible_parts(state, series)
        .await?
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let views = crate::services::posts::render(&state.db, parts).await?;
    Ok(views
        .iter()
        .filter_map(|v| serde_json::to_string(v).ok())
        .filter_map(|json| PublicPost::from_json(&json))
        .collect())
}

async fn author_name(state: &AppState, series: &Series) -> ApiResult<String> {
    Ok(user_directory::authors(&state.db, &[series.author])
        .await?
        .remove(&series.author)
        .map(|a| a.name)
        .unwrap_or_else(|| crate::post_view::DELETED_AUTHOR.to_string()))
}

/// The page of a series (`None`: no series has that slug).
pub async fn page(state: &AppState, raw: &str) -> ApiResult<Option<Page>> {
    let Some(series) = named(state, raw).await? else {
        return Ok(None);
    };
    let parts = public_parts(state, &series).await?;
    let info = SeriesInfo {
        author_id: series.author.to_hex(),
        author_name: author_name(state, &series).await?,
        title: series.title.clone(),
        slug: series.slug.clone(),
        description: series.description.clone(),
    };
    let (meta, body) = series_page(&super::site(state), &info, &parts);
    // The app draws its first screen from the series as a guest sees it (a signed-in reader's
    // following and progress are read when it starts).
    let guest = crate::routes::series::answer(state, &series, None).await?;
    let data = serde_json::json!({ "path": series_path(&series.slug), "series": guest });
    Ok(Some(Page {
        meta: Some(meta),
        body,
        initial_data: Some(data.to_string()),
    }))
}

/// What a series' feeds hold: its title, description, page and visible parts, newest first
/// (`None`: no series has that slug).
pub async fn feed_of(
    state: &AppState,
    raw: &str,
) -> ApiResult<Option<(String, String, String, Vec<PublicPost>)>> {
    let Some(series) = named(state, raw).await? else {
        return Ok(None);
    };
    let mut parts = public_parts(state, &series).await?;
    parts.reverse();
    let description = if series.description.trim().is_empty() {
        format!("A series by {}", author_name(state, &series).await?)
    } else {
        series.description.clone()
    };
    Ok(Some((
        series.title.clone(),
        description,
        series_path(&series.slug),
        parts,
    )))
}

/// Fills in where a post stands in its series (its page's bar and JSON-LD, and the app's data).
pub async fn place(state: &AppState, post: &mut PublicPost, json: &mut String) {
    let ids = (
        mongodb::bson::oid::ObjectId::parse_str(&post.id),
        post.series_id
            .as_deref()
            .map(mongodb::bson::oid::ObjectId::parse_str),
    );
    let (Ok(post_id), Some(Ok(series_id))) = ids else {
        return;
    };
    match crate::services::series::of_post(state, post_id, series_id).await {
        Ok(Some(found)) => {
            if let Ok(mut value) = serde_json::from_str::<serde_json::Value>(json) {
                value["series"] = serde_json::to_value(&found).unwrap_or_default();
                *json = value.to_string();
            }
            post.series = Some(found);
        }
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "a post's series could not be read"),
    }
}

/// The series with at least one part, for the sitemap: (slug, last change in milliseconds).
pub async fn listed(state: &AppState, limit: i64) -> ApiResult<Vec<(String, i64)>> {
    Ok(store::listed(&state.db, limit)
        .await?
        .into_iter()
        .map(|s| (s.slug, s.updated_at.timestamp_millis()))
        .collect())
}
