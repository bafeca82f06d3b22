//! `robots.txt` and the sitemaps: an index (`/sitemap.xml`) naming, for each block of up to
//! 10,000 public posts (newest first), a sitemap of the posts (`/sitemap-posts-N.xml`, with
//! `lastmod`) and one each of their authors, tags and categories. Read from the index's post
//! hashes, so a sitemap costs the same at 100,000 posts as at 100. A page past the last answers
//! 404; a sitemap with nothing of its kind (no tags yet) names the home page, as the protocol
//! wants at least one address.

use std::collections::{BTreeMap, HashMap};

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use mongodb::bson::oid::ObjectId;

use super::{site, validated};
use crate::error::{ApiError, ApiResult};
use crate::feeds::sitemap::SitemapPost;
use crate::pages::model::{author_path, category_path, post_path, tag_path};
use crate::pages::sitemap::{self, pages_for, SitemapUrl, CONTENT_TYPE, POSTS_PER_SITEMAP};
use crate::redis_pool::RedisFailure;
use crate::state::AppState;

const SITEMAP_CACHE: &str = "public, max-age=600";
/// The kinds of child sitemaps.
pub const KINDS: [&str; 5] = ["posts", "authors", "tags", "categories", "series"];
pub const MSG_NO_SITEMAP: &str = "No such sitemap";

/// Paths crawlers are asked to leave alone.
pub const DISALLOWED: [&str; 7] = [
    "/api/",
    "/admin",
    "/user-setting",
    "/message-box",
    "/bookmark",
    "/my-subscriptions",
    "/search",
];

/// `GET /robots.txt`.
pub async fn robots(state: web::Data<AppState>) -> HttpResponse {
    let mut body = String::from("User-agent: *\nAllow: /\n");
    for path in DISALLOWED {
        body.push_str(&format!("Disallow: {path}\n"));
    }
    body.push_str(&format!(
        "\nSitemap: {}\n",
        site(&state).url("/sitemap.xml")
    ));
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(body)
}

fn index_unavailable(e: RedisFailure) -> ApiError {
    ApiError::Unavailable(anyhow::anyhow!("the read index cannot list posts: {e}"))
}

fn iso_ms(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The index's current generation and how many public posts it lists.
async fn public_list(state: &AppState) -> ApiResult<(crate::feeds::keys::Gen, u64)> {
    let gen = state
        .feeds
        .current()
        .ok_or_else(|| index_unavailable(RedisFailure::Down))?;
    let total = state
        .feeds
        .public_count(&gen)
        .await
        .map_err(index_unavailable)?;
    Ok((gen, total))
}

/// `GET /sitemap.xml`.
pub async fn index(req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let (_, total) = public_list(&state).await?;
    let site = site(&state);
    let mut children = Vec::new();
    for n in 1..=pages_for(total) {
        for kind in KINDS {
            children.push(SitemapUrl {
                loc: site.url(&format!("/sitemap-{kind}-{n}.xml")),
                lastmod: None,
            });
        }
    }
    Ok(validated(
        &req,
        StatusCode::OK,
        CONTENT_TYPE,
        SITEMAP_CACHE,
        sitemap::index(&children),
        None,
    ))
}

/// `GET /sitemap-{kind}-{n}.xml`.
pub async fn child(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, u64)>,
) -> ApiResult<HttpResponse> {
    let (kind, n) = path.into_inner();
    if !KINDS.contains(&kind.as_str()) || n == 0 {
        return Err(ApiError::not_found(MSG_NO_SITEMAP));
    }
    let (gen, total) = public_list(&state).await?;
    if n > pages_for(total) {
        return Err(ApiError::not_found(MSG_NO_SITEMAP));
    }
    let skip = usize::try_from((n - 1) * POSTS_PER_SITEMAP as u64).unwrap_or(usize::MAX);
    let posts = state
        .feeds
        .sitemap_posts(&gen, skip, POSTS_PER_SITEMAP)
        .await
        .map_err(index_unavailable)?;
    let mut urls = match kind.as_str() {
        "posts" => post_urls(&state, n, &posts),
        "authors" => author_urls(&state, &posts),
        "tags" => tag_urls(&state, &posts),
        "series" => series_urls(&state, n).await?,
        _ => category_urls(&state, &posts).await?,
    };
    // A sitemap names at least one address: one with nothing of its kind names the home page.
    if urls.is_empty() {
        urls.push(SitemapUrl {
            loc: site(&state).url("/"),
            lastmod: None,
        });
    }
    Ok(validated(
        &req,
        StatusCode::OK,
        CONTENT_TYPE,
        SITEMAP_CACHE,
        sitemap::urlset(&urls),
        None,
    ))
}

/// Every series with a part, on the first page of series (a site has far fewer series than a
/// sitemap holds).
async fn series_urls(state: &AppState, n: u64) -> ApiResult<Vec<SitemapUrl>> {
    if n != 1 {
        return Ok(Vec::new());
    }
    let site = site(state);
    Ok(super::series::listed(state, POSTS_PER_SITEMAP as i64)
        .await?
        .into_iter()
        .map(|(slug, modified)| SitemapUrl {
            loc: site.url(&crate::pages::model::series_path(&slug)),
            lastmod: Some(iso_ms(modified)),
        })
        .collect())
}

fn post_urls(state: &AppState, n: u64, posts: &[SitemapPost]) -> Vec<SitemapUrl> {
    let site = site(state);
    let mut urls = Vec::with_capacity(posts.len() + 1);
    if n == 1 {
        urls.push(SitemapUrl {
            loc: site.url("/"),
            lastmod: posts.first().map(|p| iso_ms(p.modified_ms)),
        });
    }
    urls.extend(posts.iter().map(|p| SitemapUrl {
        loc: site.url(&post_path(&p.slug)),
        lastmod: Some(iso_ms(p.modified_ms)),
    }));
    urls
}

/// Each key once, with the newest change among its posts, in the order first met.
fn newest_by<K: Ord + Clone>(
    posts: &[SitemapPost],
    keys: impl Fn(&SitemapPost) -> Vec<K>,
) -> Vec<(K, i64)> {
    let mut seen: BTreeMap<K, (usize, i64)> = BTreeMap::new();
    for (i, p) in posts.iter().enumerate() {
        for k in keys(p) {
            let e = seen.entry(k).or_insert((i, p.modified_ms));
            e.1 = e.1.max(p.modified_ms);
        }
    }
    let mut out: Vec<(usize, K, i64)> = seen.into_iter().map(|(k, (i, m))| (i, k, m)).collect();
    out.sort_by_key(|(i, _, _)| *i);
    out.into_iter().map(|(_, k, m)| (k, m)).collect()
}

fn author_urls(state: &AppState, posts: &[SitemapPost]) -> Vec<SitemapUrl> {
    let site = site(state);
    newest_by(posts, |p| vec![p.author])
        .into_iter()
        .map(|(a, m)| SitemapUrl {
            loc: site.url(&author_path(&a.to_hex())),
            lastmod: Some(iso_ms(m)),
        })
        .collect()
}

fn tag_urls(state: &AppState, posts: &[SitemapPost]) -> Vec<SitemapUrl> {
    let site = site(state);
    newest_by(posts, |p| p.tags.clone())
        .into_iter()
        .map(|(t, m)| SitemapUrl {
            loc: site.url(&tag_path(&t)),
            lastmod: Some(iso_ms(m)),
        })
        .collect()
}

async fn category_urls(state: &AppState, posts: &[SitemapPost]) -> ApiResult<Vec<SitemapUrl>> {
    let site = site(state);
    let newest = newest_by(posts, |p| p.category.into_iter().collect());
    let ids: Vec<ObjectId> = newest.iter().map(|(c, _)| *c).collect();
    let cards: HashMap<ObjectId, crate::post_view::CategoryRef> = state
        .feeds
        .category_cards(&ids)
        .await
        .map_err(|e| ApiError::Unavailable(anyhow::anyhow!("category cards: {e}")))?;
    Ok(newest
        .into_iter()
        .filter_map(|(c, m)| {
            cards.get(&c).map(|card| SitemapUrl {
                loc: site.url(&category_path(&card.slug)),
                lastmod: Some(iso_ms(m)),
            })
        })
        .collect())
}
