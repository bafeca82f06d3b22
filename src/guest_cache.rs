//! The guest cache: what signed-out readers ask most (the public lists, a public post, the
//! counts, the search, the server-rendered pages, feeds and sitemaps) kept in memory as the
//! encoded answer, so a repeated request costs a map lookup and a copy of bytes.
//!
//! - **Only guests.** A request carrying a token (bearer header or session cookie) never reads
//!   or fills the cache: signed-in answers keep their per-reader rules (their own drafts,
//!   subscriber unlocks, votes, blocks).
//! - **Dropped by the writes that change it.** The cache is part of the database's write
//!   observer (`persistence::observer`): once the read index has a change, the answers it touches
//!   are dropped before the write's request answers — for changed posts every list and those
//!   posts' own answers; for changed users (name, avatar, block) every list and their posts'
//!   answers; for categories and trending scores every list. Follows, blocks between users and
//!   bookmarks change only signed-in answers and drop nothing.
//! - **On every node.** The same invalidation is published through the cluster broker (Redis
//!   pub/sub, `Realtime::notify_cluster`) and applied by the other nodes when it arrives; a node
//!   that (re)subscribes drops everything, since it may have missed messages.
//! - **Bounded staleness.** An answer lives at most `guest_cache.max_age_ms` (500 ms by default,
//!   kept under 1 s): what a node can serve after missing a message, and how late changes
//!   that are not reported as writes (likes, views and votes counted elsewhere, a scheduled
//!   post's time coming) show.
//! - **No stale refill.** An answer computed while an invalidation ran is not stored: every
//!   invalidation bumps an epoch, and an answer is kept only if the epoch it started under is
//!   still the current one.
//!
//! Every `200` answer of these routes (guest or not) carries an `ETag`, and a request whose
//! `If-None-Match` holds it gets `304 Not Modified`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, RwLock};
use std::time::{Duration, Instant};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::HttpResponse;
use futures_util::future::BoxFuture;
use mongodb::bson::oid::ObjectId;
use serde_json::{json, Value};

use crate::config::GuestCacheSettings;
use crate::persistence::observer::{Change, WriteObserver};

/// Topic of the invalidations between nodes.
pub(crate) const NOTICE_TOPIC: &str = "guest-cache";
/// Longest life accepted for an answer (the documented bound is under a second).
const MAX_AGE_CEILING: Duration = Duration::from_millis(900);
/// Largest answer kept.
const MAX_BODY: usize = 1024 * 1024;

/// What a cached answer depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Dep {
    /// A list, count, search, page or feed: any change of posts, users or categories.
    Lists,
    /// One post's answer: that post, its author, categories.
    Post {
        post: ObjectId,
        author: Option<ObjectId>,
    },
}

struct Entry {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
    etag: HeaderValue,
    dep: Dep,
    made: Instant,
}

/// What to drop.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Invalidation {
    lists: bool,
    posts: Vec<ObjectId>,
    authors: Vec<ObjectId>,
    all: bool,
}

impl Invalidation {
    /// What a write changed means for guests (`None`: nothing they see).
    pub(crate) fn of(change: &Change) -> Option<Self> {
        match change {
            Change::Posts(ids) => Some(Self {
                lists: true,
                posts: ids.clone(),
                ..Self::default()
            }),
            Change::Users(ids) => Some(Self {
                lists: true,
                authors: ids.clone(),
                ..Self::default()
            }),
            Change::Categories(_) => Some(Self {
                all: true,
                ..Self::default()
            }),
            Change::TrendingScores(_) => Some(Self {
                lists: true,
                ..Self::default()
            }),
            Change::Follow { .. } | Change::Block { .. } | Change::Bookmark { .. } => None,
        }
    }

    fn everything() -> Self {
        Self {
            all: true,
            ..Self::default()
        }
    }

    fn to_notice(&self) -> Value {
        let hex = |ids: &[ObjectId]| ids.iter().map(|i| i.to_hex()).collect::<Vec<_>>();
        json!({
            "lists": self.lists,
            "all": self.all,
            "posts": hex(&self.posts),
            "authors": hex(&self.authors),
        })
    }

    /// Reads another node's notice; anything unreadable drops everything.
    fn from_notice(data: &Value) -> Self {
        let ids = |field: &str| -> Option<Vec<ObjectId>> {
            data.get(field)?
                .as_array()?
                .iter()
                .map(|v| v.as_str().and_then(|s| ObjectId::parse_str(s).ok()))
                .collect()
        };
        match (ids("posts"), ids("authors")) {
            (Some(posts), Some(authors)) => Self {
                lists: data["lists"].as_bool().unwrap_or(true),
                all: data["all"].as_bool().unwrap_or(true),
                posts,
                authors,
            },
            _ => Self::everything(),
        }
    }

    fn drops(&self, dep: &Dep) -> bool {
        if self.all {
            return true;
        }
        match dep {
            Dep::Lists => self.lists,
            Dep::Post { post, author } => {
                self.posts.contains(post) || author.is_some_and(|a| self.authors.contains(&a))
            }
        }
    }
}

struct Inner {
    enabled: bool,
    max_age: Duration,
    max_entries: usize,
    epoch: AtomicU64,
    entries: RwLock<HashMap<String, Arc<Entry>>>,
    /// Sends an invalidation to the other nodes (set once the broker exists).
    publish: OnceLock<Box<dyn Fn(Value) + Send + Sync>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// The cache; cheap to clone.
#[derive(Clone)]
pub struct GuestCache {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for GuestCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GuestCache")
            .field("enabled", &self.inner.enabled)
            .field("entries", &self.len())
            .finish()
    }
}

impl GuestCache {
    pub fn new(settings: &GuestCacheSettings) -> Self {
        Self {
            inner: Arc::new(Inner {
                enabled: settings.enabled && settings.max_entries > 0,
                max_age: Duration::from_millis(settings.max_age_ms).min(MAX_AGE_CEILING),
                max_entries: settings.max_entries,
                epoch: AtomicU64::new(0),
                entries: RwLock::new(HashMap::new()),
                publish: OnceLock::new(),
                hits: AtomicU64::new(0),
                misses: AtomicU64::new(0),
            }),
        }
    }

    pub(crate) fn enabled(&self) -> bool {
        self.inner.enabled
    }

    /// Sends this node's invalidations to the others through `publish`.
    pub(crate) fn set_publisher(&self, publish: impl Fn(Value) + Send + Sync + 'static) {
        let _ = self.inner.publish.set(Box::new(publish));
    }

    /// Answers kept now.
    pub fn len(&self) -> usize {
        self.inner.entries.read().map(|e| e.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// (hits, misses) since start.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.inner.hits.load(Ordering::Relaxed),
            self.inner.misses.load(Ordering::Relaxed),
        )
    }

    fn get(&self, key: &str) -> Option<Arc<Entry>> {
        let entries = self.inner.entries.read().ok()?;
        let entry = entries.get(key)?;
        (entry.made.elapsed() < self.inner.max_age).then(|| entry.clone())
    }

    /// Bumped by every invalidation applied here (of this node or another).
    pub fn epoch(&self) -> u64 {
        self.inner.epoch.load(Ordering::SeqCst)
    }

    /// Keeps an answer computed under `epoch`, unless an invalidation ran since.
    fn put(&self, key: String, epoch: u64, entry: Entry) {
        let Ok(mut entries) = self.inner.entries.write() else {
            return;
        };
        if self.inner.epoch.load(Ordering::SeqCst) != epoch {
            return;
        }
        if entries.len() >= self.inner.max_entries && !entries.contains_key(&key) {
            let max_age = self.inner.max_age;
            entries.retain(|_, e| e.made.elapsed() < max_age);
            if entries.len() >= self.inner.max_entries {
                return;
            }
        }
        entries.insert(key, Arc::new(entry));
    }

    /// Drops what `what` names on this node.
    pub(crate) fn drop_local(&self, what: &Invalidation) {
        let Ok(mut entries) = self.inner.entries.write() else {
            return;
        };
        self.inner.epoch.fetch_add(1, Ordering::SeqCst);
        if what.all {
            entries.clear();
        } else {
            entries.retain(|_, e| !what.drops(&e.dep));
        }
    }

    /// Drops everything on this node (after a (re)subscription: messages may have been missed).
    pub(crate) fn clear(&self) {
        self.drop_local(&Invalidation::everything());
    }

    /// Applies another node's invalidation notice.
    pub(crate) fn apply_notice(&self, data: &Value) {
        self.drop_local(&Invalidation::from_notice(data));
    }

    /// Drops `what` here and on the other nodes.
    pub(crate) fn invalidate(&self, what: &Invalidation) {
        self.drop_local(what);
        if let Some(publish) = self.inner.publish.get() {
            publish(what.to_notice());
        }
    }
}

/// The database's write observer: the read index first, then the guest cache (so an answer
/// computed after the drop reads the index with the change in it).
pub struct Observer {
    pub feeds: crate::feeds::Feeds,
    pub cache: GuestCache,
}

impl WriteObserver for Observer {
    fn changed(&self, change: Change) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let what = Invalidation::of(&change);
            self.feeds.changed(change).await;
            if let Some(what) = what {
                self.cache.invalidate(&what);
            }
        })
    }
}

/// What kind of answer a path is, when it is one the cache serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Depends on every post.
    List,
    /// One post's JSON answer (`{post: {...}}`).
    Post,
}

/// Paths served from the cache for guests.
fn kind_of(path: &str) -> Option<Kind> {
    const LISTS: [&str; 7] = [
        "/api/public/posts",
        "/api/post/public/posts",
        "/api/post/latest-post/latest",
        "/api/post/trending-post/trending",
        "/api/post/count/all",
        "/api/public/search-posts",
        "/api/category/all-category",
    ];
    if LISTS.contains(&path) {
        return Some(Kind::List);
    }
    if let Some(rest) = path.strip_prefix("/api/post/user/") {
        return rest
            .strip_suffix("/posts")
            .filter(|id| !id.contains('/'))
            .map(|_| Kind::List);
    }
    for prefix in ["/api/public/post/", "/api/post/public/"] {
        if let Some(slug) = path.strip_prefix(prefix) {
            return (!slug.is_empty() && !slug.contains('/')).then_some(Kind::Post);
        }
    }
    if path.starts_with("/api/") {
        return None;
    }
    // Server-rendered pages, feeds and sitemaps (they show lists of posts).
    let page = path == "/"
        || ["/post/", "/author-profile/", "/tag/", "/category/"]
            .iter()
            .any(|p| path.starts_with(p))
        || path == "/feed.xml"
        || path == "/rss.xml"
        || (path.starts_with("/sitemap") && path.ends_with(".xml"));
    page.then_some(Kind::List)
}

/// Whether answers of this path (or route pattern) carry an `ETag` and may be `304`.
pub(crate) fn validates(path: &str) -> bool {
    kind_of(path).is_some()
}

/// The post (and its author) an answer `{post: {...}}` is about.
fn post_dep(body: &[u8]) -> Option<Dep> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let post = v.get("post")?;
    let id = ObjectId::parse_str(post.get("_id")?.as_str()?).ok()?;
    let author = ["author", "userId", "user"].iter().find_map(|f| {
        let a = post.get(*f)?;
        a.as_str()
            .or_else(|| a.get("_id").and_then(Value::as_str))
            .and_then(|s| ObjectId::parse_str(s).ok())
    });
    Some(Dep::Post { post: id, author })
}

fn etag_of(body: &[u8]) -> HeaderValue {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(body);
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}\"")).unwrap_or(HeaderValue::from_static("\"0\""))
}

/// Whether the request's validators match the kept answer: `If-None-Match` naming `etag` (weak
/// comparison, `*` included), or, without it, `If-Modified-Since` no earlier than the answer's
/// `Last-Modified` (RFC 9110 §13.1.3: the date is ignored when `If-None-Match` is present).
fn not_modified(req: &ServiceRequest, etag: &HeaderValue, headers: &HeaderMap) -> bool {
    if let Some(tags) = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    {
        let ours = etag.to_str().unwrap_or_default().trim_start_matches("W/");
        return tags
            .split(',')
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == "*" || t == ours);
    }
    let date = |value: Option<&HeaderValue>| {
        value
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<header::HttpDate>().ok())
            .map(std::time::SystemTime::from)
    };
    match (
        date(req.headers().get(header::IF_MODIFIED_SINCE)),
        date(headers.get(header::LAST_MODIFIED)),
    ) {
        (Some(since), Some(last)) => last <= since,
        _ => false,
    }
}

fn answer(
    req: ServiceRequest,
    status: StatusCode,
    headers: &HeaderMap,
    body: Bytes,
    etag: &HeaderValue,
) -> ServiceResponse<BoxBody> {
    let not_modified = status == StatusCode::OK && not_modified(&req, etag, headers);
    let mut res = if not_modified {
        HttpResponse::NotModified().finish()
    } else {
        HttpResponse::with_body(status, body).map_into_boxed_body()
    };
    let out = res.headers_mut();
    for (name, value) in headers {
        if not_modified && name == header::CONTENT_TYPE {
            continue;
        }
        out.append(name.clone(), value.clone());
    }
    out.insert(header::ETAG, etag.clone());
    if !out.contains_key(header::CACHE_CONTROL) {
        out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    let (req, _) = req.into_parts();
    ServiceResponse::new(req, res)
}

/// The middleware: serves guests' answers of the cached routes from memory, fills the cache on
/// a miss, and validates (`ETag`/`304`) every `200` answer of those routes.
/// `feeds` is the read index, whose reads may be paused.
pub(crate) async fn serve(
    cache: GuestCache,
    feeds: crate::feeds::Feeds,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let kind = (req.method() == Method::GET)
        .then(|| kind_of(req.path()))
        .flatten();
    let Some(kind) = kind else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let cache = &cache;
    let guest = crate::auth::token_from_request(req.request()).is_none();
    // While reads are sent to the database on purpose, answers are computed (and not kept).
    let key =
        (guest && cache.enabled() && !feeds.reads_paused()).then(|| match req.query_string() {
            "" => req.path().to_owned(),
            q => format!("{}?{q}", req.path()),
        });
    if let Some(entry) = key.as_deref().and_then(|k| cache.get(k)) {
        cache.inner.hits.fetch_add(1, Ordering::Relaxed);
        return Ok(answer(
            req,
            entry.status,
            &entry.headers,
            entry.body.clone(),
            &entry.etag,
        ));
    }
    let epoch = cache.epoch();
    let res = next.call(req).await?;
    if res.status() != StatusCode::OK {
        return Ok(res.map_into_boxed_body());
    }
    // Only answers of a known, modest size are buffered (pages and lists always are).
    match res.response().body().size() {
        actix_web::body::BodySize::Sized(n) if n as usize <= MAX_BODY => {}
        _ => return Ok(res.map_into_boxed_body()),
    }
    let (req, res) = res.into_parts();
    let (head, body) = res.into_parts();
    let body = actix_web::body::to_bytes(body)
        .await
        .map_err(|e| actix_web::error::ErrorInternalServerError(e.into().to_string()))?;
    let status = head.status();
    let mut headers = head.headers().clone();
    let etag = headers
        .get(header::ETAG)
        .cloned()
        .unwrap_or_else(|| etag_of(&body));
    headers.remove(header::ETAG);
    if !guest && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache"),
        );
    }
    // An answer that sets a cookie belongs to one visitor: never handed to another.
    let key = key.filter(|_| !headers.contains_key(header::SET_COOKIE));
    if let Some(key) = key {
        cache.inner.misses.fetch_add(1, Ordering::Relaxed);
        let dep = match kind {
            Kind::List => Some(Dep::Lists),
            Kind::Post => post_dep(&body),
        };
        if let Some(dep) = dep {
            cache.put(
                key,
                epoch,
                Entry {
                    status,
                    headers: headers.clone(),
                    body: body.clone(),
                    etag: etag.clone(),
                    dep,
                    made: Instant::now(),
                },
            );
        }
    }
    let req = ServiceRequest::from_parts(req, actix_web::dev::Payload::None);
    Ok(answer(req, status, &headers, body, &etag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_classified() {
        assert_eq!(kind_of("/api/public/posts"), Some(Kind::List));
        assert_eq!(kind_of("/api/post/user/abc/posts"), Some(Kind::List));
        assert_eq!(kind_of("/api/post/user/abc/x/posts"), None);
        assert_eq!(kind_of("/api/public/post/a-slug"), Some(Kind::Post));
        assert_eq!(kind_of("/api/post/public/a-slug"), Some(Kind::Post));
        assert_eq!(kind_of("/api/post/count/my"), None);
        assert_eq!(kind_of("/api/auth/check"), None);
        assert_eq!(kind_of("/"), Some(Kind::List));
        assert_eq!(kind_of("/post/a-slug"), Some(Kind::List));
        assert_eq!(kind_of("/assets/app.js"), None);
        assert_eq!(kind_of("/login"), None);
    }

    #[test]
    fn notices_round_trip_and_garbage_drops_everything() {
        let a = ObjectId::new();
        let what = Invalidation::of(&Change::Posts(vec![a])).unwrap();
        assert_eq!(Invalidation::from_notice(&what.to_notice()), what);
        assert!(Invalidation::from_notice(&json!({"posts": 3})).all);
        assert!(Invalidation::of(&Change::Block {
            blocker: a,
            blocked: a,
            on: true
        })
        .is_none());
    }

    #[test]
    fn a_post_change_drops_lists_and_that_post_only() {
        let (a, b, author) = (ObjectId::new(), ObjectId::new(), ObjectId::new());
        let what = Invalidation::of(&Change::Posts(vec![a])).unwrap();
        assert!(what.drops(&Dep::Lists));
        assert!(what.drops(&Dep::Post {
            post: a,
            author: None
        }));
        assert!(!what.drops(&Dep::Post {
            post: b,
            author: Some(author)
        }));
        let user = Invalidation::of(&Change::Users(vec![author])).unwrap();
        assert!(user.drops(&Dep::Post {
            post: b,
            author: Some(author)
        }));
        assert!(!user.drops(&Dep::Post {
            post: a,
            author: None
        }));
    }
}
