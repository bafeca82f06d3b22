//! The app's pages as the server answers them: the built `index.html` with the page's head, its
//! public content inside the app's root element and the app's initial data, with true status
//! codes: an unknown post, author, tag, category or page answers 404 (the app shows its
//! not-found screen); a post a guest may not read answers 404 unless the viewer may read it (its
//! author, or an administrator for a blocked or private one), and then reveals nothing of it in
//! the HTML. Pages that are not public content carry `noindex`.

use std::sync::Arc;

use actix_web::dev::ServiceRequest;
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use mongodb::bson::oid::ObjectId;

use super::{decode_segment, lookup, site, validated, Lookup, MediaSizes, SiteCaches};
use crate::auth::MaybeUser;
use crate::domain::money::PlanStatus;
use crate::domain::post::{PostStatus, Visibility};
use crate::domain::tags::{normalize_tag, MAX_TAG_LEN};
use crate::pages::head::PageMeta;
use crate::pages::model::PublicPost;
use crate::pages::shell::{Page, Shell};
use crate::pages::view::{self, AuthorInfo, AuthorScreen, CardContext, CategoryInfo};
use crate::persistence::posts::{PageRequest, SortKind};
use crate::persistence::{categories, redirects, users};
use crate::services::feed::{self, Feed};
use crate::state::AppState;

/// Cards on the first screen of a list page.
pub const FIRST_SCREEN: i64 = 12;
const HTML: &str = "text/html; charset=utf-8";
/// Pages are revalidated on every visit (their ETag makes that cheap).
const PAGE_CACHE: &str = "no-cache";

/// Pages of the app that are public content (indexable) without anything to fill in.
const PUBLIC_PAGES: [(&str, &str); 4] = [
    ("about", "About"),
    ("contact", "Contact"),
    ("privacy", "Privacy policy"),
    ("terms", "Terms of service"),
];

/// The app's other pages (one segment): not content, never indexed.
const APP_PAGES: [(&str, &str); 18] = [
    ("search", "Search"),
    ("createPost", "Write a post"),
    ("admin", "Administration"),
    ("user", "Your profile"),
    ("user-setting", "Settings"),
    ("bookmark", "Bookmarks"),
    ("my-subscriptions", "Your subscriptions"),
    ("my-series", "Your series"),
    ("message-box", "Messages"),
    ("users", "Online now"),
    ("verify", "Verify your email"),
    ("signup", "Sign up"),
    ("login", "Log in"),
    ("select-category", "Choose your categories"),
    ("reset-password", "Reset your password"),
    ("edit-post", "Edit a post"),
    ("delete-post", "Delete a post"),
    ("acknowledge", "Acknowledge a report"),
];

/// Pages of the app that take one parameter and are not content.
const APP_PAGES_WITH_PARAM: [&str; 4] = ["edit-post", "delete-post", "acknowledge", "plans"];

fn respond(req: &HttpRequest, shell: &Shell, status: StatusCode, page: Page) -> HttpResponse {
    validated(req, status, HTML, PAGE_CACHE, shell.render(&page), None)
}

fn plain(title: &str) -> Page {
    Page {
        meta: Some(PageMeta::plain(title)),
        ..Page::default()
    }
}

fn not_found() -> Page {
    plain("Page not found")
}

/// `GET /`.
pub async fn home(
    req: HttpRequest,
    state: web::Data<AppState>,
    shell: web::Data<Shell>,
) -> HttpResponse {
    let list = Feed::Public {
        tag: None,
        category: None,
    };
    let screen = first_screen(&state, &list).await.unwrap_or_default();
    let caches = SiteCaches::of(&req);
    let sizes = MediaSizes {
        dir: &state.settings.server.media_dir,
        caches: &caches,
    };
    let cx = CardContext {
        sizes: &sizes,
        now: chrono::Utc::now(),
    };
    let (meta, body) = view::home_page(&site(&state), &screen.posts, screen.total, &cx);
    let mut data = screen.initial_data("/", "latestPosts", serde_json::json!({}));
    data["counts"] = serde_json::json!({ "allPostsCount": screen.total });
    let page = Page {
        meta: Some(meta),
        body,
        initial_data: Some(data.to_string()),
    };
    respond(&req, &shell, StatusCode::OK, page)
}

/// The first screen of a list as a guest sees it: the posts, their JSON as the API gives it
/// (without their blocks, which cards do not show), and the list's total.
#[derive(Default)]
struct Screen {
    posts: Vec<PublicPost>,
    json: Vec<serde_json::Value>,
    total: u64,
}

impl Screen {
    /// The app's initial data for a list page at `path`: the list it fills (`key`, `filter` as
    /// the app's `usePostList` names them) with this first page, so it draws the same cards.
    fn initial_data(&self, path: &str, key: &str, filter: serde_json::Value) -> serde_json::Value {
        serde_json::json!({
            "path": path,
            "list": { "key": key, "filter": filter, "posts": self.json, "total": self.total },
        })
    }
}

/// The first screen of a list (`None` when it cannot be read).
async fn first_screen(state: &AppState, list: &Feed) -> Option<Screen> {
    let page = PageRequest {
        after: None,
        after_id: None,
        skip: 0,
        limit: FIRST_SCREEN,
    };
    match feed::serve(state, None, list, SortKind::Newest, page).await {
        Ok((raw, total)) => {
            let mut screen = Screen {
                total,
                ..Screen::default()
            };
            for r in &raw {
                let (Some(post), Ok(mut json)) = (
                    PublicPost::from_json(r.get()),
                    serde_json::from_str::<serde_json::Value>(r.get()),
                ) else {
                    continue;
                };
                if let Some(blocks) = json.get_mut("blocks") {
                    *blocks = serde_json::json!([]);
                }
                screen.posts.push(post);
                screen.json.push(json);
            }
            Some(screen)
        }
        Err(e) => {
            tracing::debug!(error = %e, "a page's list could not be read");
            None
        }
    }
}

/// Every other page of the app (the files' fallback).
pub async fn app_page(
    req: ServiceRequest,
) -> Result<actix_web::dev::ServiceResponse, actix_web::Error> {
    let (http_req, _) = req.into_parts();
    let res = page_for(&http_req).await;
    Ok(actix_web::dev::ServiceResponse::new(http_req, res))
}

async fn page_for(req: &HttpRequest) -> HttpResponse {
    let Some(shell) = req.app_data::<web::Data<Shell>>().cloned() else {
        return HttpResponse::NotFound().finish();
    };
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return respond(req, &shell, StatusCode::OK, Page::default());
    };
    let caches = SiteCaches::of(req);
    let path = req.path().trim_end_matches('/');
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (status, page) = match segments.as_slice() {
        ["post", slug] => post_page(req, &state, &caches, slug).await,
        ["author-profile", id] => author_page(&state, &caches, id).await,
        ["tag", tag] => tag_page(&state, &caches, tag).await,
        ["category", c] => category_page(&state, &caches, c).await,
        ["series", slug] => match super::series::page(&state, slug).await {
            Ok(Some(page)) => (StatusCode::OK, page),
            Ok(None) => (StatusCode::NOT_FOUND, not_found()),
            Err(e) => {
                tracing::warn!(error = %e, "a series page could not be rendered");
                (StatusCode::OK, plain("Series"))
            }
        },
        [name] => match PUBLIC_PAGES.iter().find(|(p, _)| p == name) {
            Some((_, title)) => {
                let mut meta = PageMeta::plain(title);
                meta.noindex = false;
                meta.canonical = Some(site(&state).url(&format!("/{name}")));
                meta.feeds = site(&state).site_feeds();
                (
                    StatusCode::OK,
                    Page {
                        meta: Some(meta),
                        ..Page::default()
                    },
                )
            }
            None => match APP_PAGES.iter().find(|(p, _)| p == name) {
                Some((_, title)) if !APP_PAGES_WITH_PARAM.contains(name) => {
                    (StatusCode::OK, plain(title))
                }
                _ => (StatusCode::NOT_FOUND, not_found()),
            },
        },
        [name, _] if APP_PAGES_WITH_PARAM.contains(name) => {
            let title = APP_PAGES
                .iter()
                .find(|(p, _)| p == name)
                .map(|(_, t)| *t)
                .unwrap_or("Plans");
            (StatusCode::OK, plain(title))
        }
        _ => (StatusCode::NOT_FOUND, not_found()),
    };
    if status == StatusCode::NOT_FOUND {
        if let Some(to) = moved_here(&state, path).await {
            return HttpResponse::MovedPermanently()
                .insert_header((actix_web::http::header::LOCATION, to))
                .finish();
        }
    }
    let mut page = page;
    // Every page names the site's feeds (feed readers discover them from any address).
    if let Some(meta) = page.meta.as_mut().filter(|m| m.feeds.is_empty()) {
        meta.feeds = site(&state).site_feeds();
    }
    respond(req, &shell, status, page)
}

/// Where an address an imported post had on this site before leads now: that post's page, while
/// anyone may read it.
async fn moved_here(state: &AppState, path: &str) -> Option<String> {
    let id = redirects::target(&state.db, path).await.ok()??;
    let post = crate::persistence::posts::find_by_id(&state.db, id)
        .await
        .ok()??;
    let readable = post.status == PostStatus::Published
        && post.visibility != Visibility::Private
        && !post.blocked;
    readable.then(|| format!("/post/{}", post.slug))
}

async fn post_page(
    req: &HttpRequest,
    state: &AppState,
    caches: &SiteCaches,
    raw: &str,
) -> (StatusCode, Page) {
    let Some(slug) = decode_segment(raw) else {
        return (StatusCode::NOT_FOUND, not_found());
    };
    let viewer = MaybeUser::extract(req).await.ok().and_then(|m| m.0);
    match lookup(state, viewer.as_ref(), Some(slug.trim()), None).await {
        Lookup::Found(mut post, mut json) => {
            super::series::place(state, &mut post, &mut json).await;
            let (meta, body) = rendered_post(state, caches, &post);
            let data = format!(
                "{{\"path\":{},\"post\":{json}}}",
                serde_json::to_string(&crate::pages::model::post_path(&post.slug))
                    .unwrap_or_else(|_| "null".into())
            );
            (
                StatusCode::OK,
                Page {
                    meta: Some(meta),
                    body,
                    initial_data: Some(data),
                },
            )
        }
        Lookup::Hidden => (StatusCode::OK, plain("Post")),
        Lookup::Unknown => (StatusCode::OK, plain("Post")),
        Lookup::Missing => (StatusCode::NOT_FOUND, not_found()),
    }
}

/// A post page's head and body, kept in `SiteCaches` by everything it shows (the post's id and
/// `updatedAt`, its author's and category's names): a post read often is rendered once per
/// version.
pub type Rendered = (PageMeta, String);
/// Rendered pages kept at most (the whole cache is dropped when it is full).
const MAX_RENDERED: usize = 2_000;

fn rendered_post(state: &AppState, caches: &SiteCaches, post: &PublicPost) -> (PageMeta, String) {
    let key = format!(
        "{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}",
        post.series
            .as_ref()
            .and_then(|s| serde_json::to_string(s).ok())
            .unwrap_or_default(),
        post.id,
        post.updated_at,
        post.author.name,
        post.category
            .as_ref()
            .map(|c| c.name.as_str())
            .unwrap_or(""),
        post.category
            .as_ref()
            .map(|c| c.slug.as_str())
            .unwrap_or(""),
    );
    if let Some(hit) = caches
        .rendered
        .lock()
        .ok()
        .and_then(|c| c.get(&key).cloned())
    {
        return (hit.0.clone(), hit.1.clone());
    }
    let sizes = MediaSizes {
        dir: &state.settings.server.media_dir,
        caches,
    };
    let rendered = view::post_page(&site(state), post, &sizes);
    if let Ok(mut cache) = caches.rendered.lock() {
        if cache.len() >= MAX_RENDERED {
            cache.clear();
        }
        cache.insert(key, Arc::new(rendered.clone()));
    }
    rendered
}

async fn author_page(state: &AppState, caches: &SiteCaches, raw: &str) -> (StatusCode, Page) {
    let Some(id) = decode_segment(raw).and_then(|id| ObjectId::parse_str(id.trim()).ok()) else {
        return (StatusCode::NOT_FOUND, not_found());
    };
    let user = match users::find_by_id(&state.db, id).await {
        Ok(Some(user)) => user,
        Ok(None) => return (StatusCode::NOT_FOUND, not_found()),
        Err(e) => {
            tracing::debug!(error = %e, "an author page could not read its author");
            return (StatusCode::OK, plain("Author"));
        }
    };
    // The profile as the API gives it to a guest, and whether they sell subscriptions now.
    let profile = match crate::services::people::profile_of(state, id, None).await {
        Ok(Some(p)) => serde_json::to_value(&p).unwrap_or_default(),
        Ok(None) => return (StatusCode::NOT_FOUND, not_found()),
        Err(e) => {
            tracing::debug!(error = %e, "an author page could not read the profile");
            return (StatusCode::OK, plain(&user.name));
        }
    };
    let has_plans = !user.blocked
        && crate::persistence::plans::by_author(&state.db, id, false)
            .await
            .map(|plans| plans.iter().any(|p| p.status == PlanStatus::Active))
            .unwrap_or(false);
    let screen = first_screen(
        state,
        &Feed::Author {
            author: id,
            text: None,
        },
    )
    .await
    .unwrap_or_default();
    let sizes = MediaSizes {
        dir: &state.settings.server.media_dir,
        caches,
    };
    let cx = CardContext {
        sizes: &sizes,
        now: chrono::Utc::now(),
    };
    let mut data = screen.initial_data(
        &format!("/author-profile/{raw}"),
        "userPosts",
        serde_json::json!({ "userId": id.to_hex(), "sort": "newest" }),
    );
    data["profile"] = profile.clone();
    data["hasPlans"] = serde_json::json!(has_plans);
    let info = AuthorInfo {
        id: id.to_hex(),
        name: user.name,
        bio: user.bio,
        avatar: user.avatar,
    };
    let author = AuthorScreen {
        profile: &profile,
        has_plans,
        posts: &screen.posts,
        total: screen.total,
    };
    let (meta, body) = view::author_page(&site(state), &info, &author, &cx);
    (
        StatusCode::OK,
        Page {
            meta: Some(meta),
            body,
            initial_data: Some(data.to_string()),
        },
    )
}

/// A tag named in a path, normalised (`None`: not a tag any post could have).
pub fn tag_of(raw: &str) -> Option<String> {
    let tag = decode_segment(raw)?;
    if tag.chars().count() > MAX_TAG_LEN * 2 {
        return None;
    }
    normalize_tag(&tag).filter(|t| t.chars().count() <= MAX_TAG_LEN)
}

async fn tag_page(state: &AppState, caches: &SiteCaches, raw: &str) -> (StatusCode, Page) {
    let Some(tag) = tag_of(raw) else {
        return (StatusCode::NOT_FOUND, not_found());
    };
    let list = Feed::Public {
        tag: Some(tag.clone()),
        category: None,
    };
    match first_screen(state, &list).await {
        Some(screen) if screen.posts.is_empty() => (StatusCode::NOT_FOUND, not_found()),
        Some(screen) => {
            let sizes = MediaSizes {
                dir: &state.settings.server.media_dir,
                caches,
            };
            let cx = CardContext {
                sizes: &sizes,
                now: chrono::Utc::now(),
            };
            let (meta, body) = view::tag_page(&site(state), &tag, &screen.posts, &cx);
            let data = screen.initial_data(
                &format!("/tag/{raw}"),
                "publicPosts",
                serde_json::json!({ "tag": tag }),
            );
            (
                StatusCode::OK,
                Page {
                    meta: Some(meta),
                    body,
                    initial_data: Some(data.to_string()),
                },
            )
        }
        None => (StatusCode::OK, plain(&format!("#{tag}"))),
    }
}

/// A category named in a path by slug or id (`Err(())`: the index cannot say).
pub async fn category_of(state: &AppState, raw: &str) -> Result<Option<categories::Category>, ()> {
    let Some(name) = decode_segment(raw) else {
        return Ok(None);
    };
    let name = name.trim();
    if name.is_empty() || name.len() > 200 {
        return Ok(None);
    }
    let id = match state.feeds.find_category(name).await {
        Ok(Some(id)) => id,
        Ok(None) => return Ok(None),
        Err(e) => {
            tracing::debug!(error = %e, "a category could not be looked up");
            return Err(());
        }
    };
    categories::find_by_id(&state.db, id).await.map_err(|_| ())
}

async fn category_page(state: &AppState, caches: &SiteCaches, raw: &str) -> (StatusCode, Page) {
    let cat = match category_of(state, raw).await {
        Ok(Some(cat)) => cat,
        Ok(None) => return (StatusCode::NOT_FOUND, not_found()),
        Err(()) => return (StatusCode::OK, plain("Category")),
    };
    let screen = first_screen(
        state,
        &Feed::Public {
            tag: None,
            category: Some(cat.id),
        },
    )
    .await
    .unwrap_or_default();
    let sizes = MediaSizes {
        dir: &state.settings.server.media_dir,
        caches,
    };
    let cx = CardContext {
        sizes: &sizes,
        now: chrono::Utc::now(),
    };
    // The app filters the list by what its address names (a slug, or an id).
    let named = decode_segment(raw).unwrap_or_default();
    let mut data = screen.initial_data(
        &format!("/category/{raw}"),
        "publicPosts",
        serde_json::json!({ "category": named }),
    );
    data["category"] = serde_json::json!({
        "_id": cat.id.to_hex(),
        "name": cat.name,
        "slug": cat.slug,
        "description": cat.description,
    });
    let info = CategoryInfo {
        name: cat.name,
        slug: cat.slug,
        description: cat.description,
    };
    let (meta, body) = view::category_page(&site(state), &info, &screen.posts, &cx);
    (
        StatusCode::OK,
        Page {
            meta: Some(meta),
            body,
            initial_data: Some(data.to_string()),
        },
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Pages whose content the server renders from the store (`post/:slug`, ...).
    const CONTENT_PAGES: [&str; 5] = ["post", "author-profile", "tag", "category", "series"];

    /// The web app's route paths (`web/src/app/routes.tsx`), a parameter written `:`.
    fn app_paths() -> BTreeSet<String> {
        let root = std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string());
        let file = std::path::Path::new(&root).join("web/src/app/routes.tsx");
        let text = std::fs::read_to_string(&file).expect("the web app's routes are readable");
        text.split("path: '")
            .skip(1)
            .filter_map(|rest| rest.split('\'').next())
            .filter(|p| *p != "*")
            .map(|p| {
                p.split('/')
                    .map(|s| if s.starts_with(':') { ":" } else { s })
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .collect()
    }

    /// The paths this module answers as pages of the app.
    fn server_paths() -> BTreeSet<String> {
        let mut paths: BTreeSet<String> = PUBLIC_PAGES.iter().map(|(p, _)| p.to_string()).collect();
        paths.extend(
            APP_PAGES
                .iter()
                .filter(|(p, _)| !APP_PAGES_WITH_PARAM.contains(p))
                .map(|(p, _)| p.to_string()),
        );
        paths.extend(APP_PAGES_WITH_PARAM.iter().map(|p| format!("{p}/:")));
        paths.extend(CONTENT_PAGES.iter().map(|p| format!("{p}/:")));
        paths
    }

    #[test]
    fn the_pages_answered_are_the_web_apps_pages() {
        let (app, server) = (app_paths(), server_paths());
        assert!(
            app.len() > 20,
            "the web app's routes were not read: {app:?}"
        );
        let missing: Vec<_> = app.difference(&server).collect();
        let extra: Vec<_> = server.difference(&app).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "the web app's pages (web/src/app/routes.tsx) and the server's (PUBLIC_PAGES, \
             APP_PAGES, APP_PAGES_WITH_PARAM) differ: only in the app {missing:?}, only here \
             {extra:?}"
        );
    }
}
