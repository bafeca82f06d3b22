//! The post lists of the API, each described once (`Feed`) and served from the read index, or,
//! when the index cannot answer (Redis down, index missing or being rebuilt), by the database
//! queries that define them. Both paths apply the same visibility rules and cursor rules, and
//! the equivalence tests hold them to the same answers. The database queries of the bookmarks,
//! the search and the suggestions (whose read index side their handlers hold) are here too.

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};
use serde_json::value::RawValue;

use super::posts::{list_filter, list_filter_for, page_of, render, unlock_for};
use crate::auth::AuthUser;
use crate::domain::search::SearchQuery;
use crate::error::{ApiError, ApiResult};
use crate::feeds::cards::ReadError;
use crate::feeds::keys::{self, Gen};
use crate::feeds::lookups::Count;
use crate::feeds::read::{Dir, Filter, ListQuery};
use crate::persistence::posts::{self, PageRequest};
use crate::persistence::{bookmarks, Db};
use crate::post_view::PostView;
use crate::state::AppState;

pub use crate::persistence::posts::SortKind;

/// A list of posts, before the viewer's visibility rules.
#[derive(Debug, Clone)]
pub enum Feed {
    /// Posts anyone may find, optionally of one tag and/or one category (public feed, latest,
    /// trending, tag and category pages, `count/all`).
    Public {
        tag: Option<String>,
        category: Option<ObjectId>,
    },
    /// The posts of these authors (`all-post?authorIds`): public ones, and all of the viewer's
    /// own when the viewer is among them; optionally of one category.
    Authors {
        authors: Vec<ObjectId>,
        category: Option<ObjectId>,
    },
    /// Public posts of the authors the viewer follows, and the viewer's own public posts.
    Following,
    /// One author's posts (all of them for the author), optionally matching a text.
    Author {
        author: ObjectId,
        text: Option<SearchQuery>,
    },
}

/// A page of posts as JSON values, and the total.
pub type Listed = (Vec<Box<RawValue>>, u64);

/// One page of a list for a viewer (`None`: a guest), and its total. Subscribers-only posts are
/// open only to who may read them.
pub async fn serve(
    state: &AppState,
    viewer: Option<&AuthUser>,
    feed: &Feed,
    sort: SortKind,
    page: PageRequest,
) -> ApiResult<Listed> {
    let me = viewer.map(|v| v.user.id);
    if let Some(gen) = state.feeds.current() {
        match from_index(state, &gen, viewer, feed, sort, page).await {
            Ok(listed) => return Ok(listed),
            Err(ReadError::Index(e)) => {
                tracing::debug!(error = %e, "read index unavailable; listing from the database");
            }
            Err(ReadError::Db(e)) => return Err(e.into()),
        }
    }
    let filter = db_filter(state, me, feed).await?;
    let (views, total) = page_of(&state.db, viewer, filter, sort, page).await?;
    Ok((to_raw(&views)?, total))
}

/// The total of a list for a viewer.
pub async fn total(state: &AppState, viewer: Option<ObjectId>, feed: &Feed) -> ApiResult<u64> {
    if let Some(gen) = state.feeds.current() {
        match index_query(state, &gen, viewer, feed, SortKind::Newest).await {
            Ok(Some(q)) => match index_total(state, &gen, &q).await {
                Ok(total) => return Ok(total),
                Err(ReadError::Index(e)) => {
                    tracing::debug!(error = %e, "read index unavailable; counting in the database");
                }
                Err(ReadError::Db(e)) => return Err(e.into()),
            },
            Ok(None) => return Ok(0),
            Err(ReadError::Index(e)) => {
                tracing::debug!(error = %e, "read index unavailable; counting in the database");
            }
            Err(ReadError::Db(e)) => return Err(e.into()),
        }
    }
    let filter = db_filter(state, viewer, feed).await?;
    Ok(posts::count(&state.db, filter).await?)
}

/// Serialises views for a response.
pub fn to_raw<T: serde::Serialize>(views: &[T]) -> ApiResult<Vec<Box<RawValue>>> {
    views
        .iter()
        .map(|v| {
            serde_json::to_string(v)
                .and_then(RawValue::from_string)
                .map_err(ApiError::internal)
        })
        .collect()
}

/// The database filter of a list for a viewer.
pub async fn db_filter(
    state: &AppState,
    viewer: Option<ObjectId>,
    feed: &Feed,
) -> ApiResult<Document> {
    let db = &state.db;
    match feed {
        Feed::Public { tag, category } => {
            let mut extra = Document::new();
            if let Some(tag) = tag {
                extra.insert("tags", tag);
            }
            if let Some(category) = category {
                extra.insert("category", category);
            }
            list_filter_for(db, viewer, false, extra).await
        }
        Feed::Authors { authors, category } => {
            let mut extra = doc! { "author": { "$in": authors } };
            if let Some(category) = category {
                extra.insert("category", category);
            }
            let own = viewer.is_some_and(|me| authors.contains(&me));
            list_filter_for(db, viewer, own, extra).await
        }
        Feed::Following => {
            let me =
                viewer.ok_or_else(|| ApiError::unauthorized(super::posts::MSG_SIGN_IN_REQUIRED))?;
            following_filter_for(db, me).await
        }
        Feed::Author { author, text } => {
            let mut extra = doc! { "author": author };
            if let Some(text) = text {
                extra.insert("searchText", doc! { "$regex": text.literal_pattern() });
            }
            let own = viewer == Some(*author);
            list_filter_for(db, viewer, own, extra).await
        }
    }
}

/// The sorted sets and filter of a list for a viewer (`None`: the list is empty for them).
async fn index_query(
    state: &AppState,
    gen: &Gen,
    me: Option<ObjectId>,
    feed: &Feed,
    sort: SortKind,
) -> Result<Option<ListQuery>, ReadError> {
    let graph = match me {
        Some(me) => {
            state
                .feeds
                .viewer_graph(gen, me, matches!(feed, Feed::Following))
                .await?
        }
        None => Default::default(),
    };
    let dir = if sort == SortKind::Oldest {
        Dir::Asc
    } else {
        Dir::Desc
    };
    let mut filter = Filter::default();
    let mut sources = Vec::new();
    let mut twins = Vec::new();
    match feed {
        Feed::Public { tag, category } => {
            let (list, twin) = match (tag, category, sort) {
                (Some(tag), _, _) => (keys::tag_list(tag), keys::tag_list(tag)),
                (None, Some(c), SortKind::Trending) => {
                    (keys::category_trend(c), keys::category_new(c))
                }
                (None, Some(c), _) => (keys::category_new(c), keys::category_new(c)),
                (None, None, SortKind::Trending) => {
                    (keys::PUBLIC_TREND.to_string(), keys::PUBLIC_NEW.to_string())
                }
                (None, None, _) => (keys::PUBLIC_NEW.to_string(), keys::PUBLIC_NEW.to_string()),
            };
            if tag.is_some() {
                filter.category = *category;
            }
            sources.push(gen.list(&list));
            twins.push(gen.list(&twin));
            filter.hidden_authors = graph.hidden;
        }
        Feed::Authors { authors, category } => {
            let mut authors = authors.clone();
            authors.sort();
            authors.dedup();
            for a in authors {
                if Some(a) == me {
                    sources.push(gen.list(&keys::own_new(&a)));
                } else if !graph.hidden.contains(&a) {
                    sources.push(gen.list(&keys::author_new(&a)));
                }
            }
            twins = sources.clone();
            filter.category = *category;
        }
        Feed::Following => {
            let Some(me) = me else {
                return Ok(None);
            };
            let mut authors = graph.followees.clone();
            authors.push(me);
            authors.sort();
            authors.dedup();
            for a in authors {
                if a == me || !graph.hidden.contains(&a) {
                    sources.push(gen.list(&keys::author_new(&a)));
                }
            }
            twins = sources.clone();
        }
        Feed::Author { author, text } => {
            let own = me == Some(*author);
            if !own && graph.hidden.contains(author) {
                return Ok(None);
            }
            let (list, twin) = match (own, sort) {
                (true, SortKind::Popular) => (keys::own_popular(author), keys::own_new(author)),
                (true, _) => (keys::own_new(author), keys::own_new(author)),
                (false, SortKind::Popular) => {
                    (keys::author_popular(author), keys::author_new(author))
                }
                (false, _) => (keys::author_new(author), keys::author_new(author)),
            };
            sources.push(gen.list(&list));
            twins.push(gen.list(&twin));
            filter.text = text.as_ref().map(|t| t.as_str().to_string());
        }
    }
    Ok(Some(ListQuery {
        sources,
        twins,
        dir,
        filter,
    }))
}

/// The total of an index query.
async fn index_total(state: &AppState, gen: &Gen, q: &ListQuery) -> Result<u64, ReadError> {
    let feeds = &state.feeds;
    if q.filter.text.is_some() {
        return Ok(feeds.count_all(gen, q).await?);
    }
    let hidden: Vec<ObjectId> = q.filter.hidden_authors.iter().copied().collect();
    let category = q.filter.category;
    let mut counts = Vec::new();
    let mut scanned = 0;
    for source in &q.sources {
        let own = source.contains(":l:own:");
        match (category, own) {
            (Some(c), false) => counts.push(Count::Inter(vec![
                source.clone(),
                gen.list(&keys::category_new(&c)),
            ])),
            (Some(_), true) => {
                // The viewer's own posts of every status: no list by category holds them all.
                let own_query = ListQuery {
                    sources: vec![source.clone()],
                    twins: vec![source.clone()],
                    dir: q.dir,
                    filter: q.filter.clone(),
                };
                scanned += feeds.count_all(gen, &own_query).await?;
            }
            (None, _) => counts.push(Count::Card(source.clone())),
        }
    }
    // Hidden authors' posts inside listable lists.
    let mut minus = Vec::new();
    if !hidden.is_empty() {
        for source in &q.sources {
            for h in &hidden {
                let mut keys = vec![source.clone(), gen.list(&keys::author_new(h))];
                if let Some(c) = category {
                    keys.push(gen.list(&keys::category_new(&c)));
                }
                minus.push(Count::Inter(keys));
            }
        }
    }
    let n = counts.len();
    counts.extend(minus);
    let values = feeds.counts(&counts).await?;
    let plus: u64 = values[..n].iter().sum();
    let minus: u64 = values[n..].iter().sum();
    Ok((plus + scanned).saturating_sub(minus))
}

async fn from_index(
    state: &AppState,
    gen: &Gen,
    viewer: Option<&AuthUser>,
    feed: &Feed,
    sort: SortKind,
    page: PageRequest,
) -> Result<Listed, ReadError> {
    let Some(q) = index_query(state, gen, viewer.map(|v| v.user.id), feed, sort).await? else {
        return Ok((Vec::new(), 0));
    };
    let (entries, total) = futures_util::try_join!(
        async {
            state
                .feeds
                .page(gen, &q, sort, page)
                .await
                .map_err(ReadError::from)
        },
        index_total(state, gen, &q)
    )?;
    let ids: Vec<ObjectId> = entries.iter().filter_map(|e| e.id()).collect();
    let posts = state.feeds.render(gen, &ids).await?;
    let posts = super::posts::unlock_raw(state, gen, viewer, posts).await?;
    Ok((posts, total))
}

/// The filter of `user`'s following feed.
pub async fn following_filter_for(
    db: &crate::persistence::Db,
    user: ObjectId,
) -> ApiResult<mongodb::bson::Document> {
    let mut authors = crate::persistence::graph::followed(db, user).await?;
    authors.push(user);
    list_filter_for(db, Some(user), false, doc! { "author": { "$in": authors } }).await
}

/// The posts `me` bookmarked that they may still find in lists (their own included), most
/// recently bookmarked first: from the read index, or from the database when it cannot answer.
pub async fn bookmarked(state: &AppState, me: &AuthUser) -> ApiResult<Vec<Box<RawValue>>> {
    match bookmarked_from_index(state, me).await {
        Ok(posts) => return Ok(posts),
        Err(ReadError::Db(e)) => return Err(e.into()),
        Err(ReadError::Index(_)) => {}
    }
    let posts = bookmarked_from_db(&state.db, me).await?;
    to_raw(&posts)
}

async fn bookmarked_from_index(
    state: &AppState,
    me: &AuthUser,
) -> Result<Vec<Box<RawValue>>, ReadError> {
    let Some(gen) = state.feeds.current() else {
        return Err(crate::redis_pool::RedisFailure::Down.into());
    };
    let limit = usize::try_from(bookmarks::MAX_LISTED).unwrap_or(500);
    let ids = state.feeds.bookmarked(&gen, me.user.id, limit).await?;
    let graph = state.feeds.viewer_graph(&gen, me.user.id, false).await?;
    let filter = Filter {
        hidden_authors: graph.hidden,
        listable_or_by: Some(me.user.id),
        ..Filter::default()
    };
    let visible = state.feeds.filter_posts(&gen, &ids, &filter).await?;
    let posts = state.feeds.render(&gen, &visible).await?;
    super::posts::unlock_raw(state, &gen, Some(me), posts).await
}

/// The posts `me` bookmarked that they may still find in lists (their own included), most
/// recently bookmarked first (at most `bookmarks::MAX_LISTED`), read from the database: the
/// bookmarks list when the read index cannot answer.
async fn bookmarked_from_db(db: &Db, me: &AuthUser) -> ApiResult<Vec<PostView>> {
    let ids = bookmarks::post_ids_of(db, me.user.id).await?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let filter = list_filter(db, Some(me), true, doc! { "_id": { "$in": &ids } }).await?;
    let page = PageRequest {
        limit: i64::try_from(ids.len()).unwrap_or(bookmarks::MAX_LISTED),
        ..PageRequest::default()
    };
    let mut found = posts::list(db, filter, SortKind::Newest, page).await?;
    let order: HashMap<ObjectId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    found.sort_by_key(|p| order.get(&p.id).copied().unwrap_or(usize::MAX));
    let mut posts = render(db, found).await?;
    unlock_for(db, Some(me), &mut posts).await?;
    Ok(posts)
}

/// One page of the posts whose text matches `text` literally (of `author` only, when given) that
/// `viewer` may find (their own included), newest first, and how many match, read from the
/// database: the search while its index is not ready.
pub async fn search_from_db(
    db: &Db,
    viewer: Option<&AuthUser>,
    text: &SearchQuery,
    author: Option<ObjectId>,
    page: PageRequest,
) -> ApiResult<Listed> {
    let mut extra = doc! { "searchText": { "$regex": text.literal_pattern() } };
    if let Some(author) = author {
        extra.insert("author", author);
    }
    let filter = list_filter_for(db, viewer.map(|v| v.user.id), true, extra).await?;
    let (views, total) = page_of(db, viewer, filter, SortKind::Newest, page).await?;
    Ok((to_raw(&views)?, total))
}

/// At most `limit` listable posts to read next for `viewer` (`None`: a guest), leaving out
/// `excluded_ids` and `excluded_slugs`: those of `category` first, then the others, each by
/// trending score, read from the database: the suggestions when the read index cannot answer.
pub async fn suggested_from_db(
    db: &Db,
    viewer: Option<&AuthUser>,
    category: Option<ObjectId>,
    excluded_ids: &[ObjectId],
    excluded_slugs: &[String],
    limit: i64,
) -> ApiResult<Vec<PostView>> {
    let base = doc! { "_id": { "$nin": excluded_ids }, "slug": { "$nin": excluded_slugs } };
    let filter = list_filter(db, viewer, false, base).await?;
    let page = |limit| PageRequest {
        limit,
        ..PageRequest::default()
    };
    let mut found = Vec::new();
    if let Some(category) = category {
        let same = doc! { "$and": [filter.clone(), { "category": category }] };
        found = posts::list(db, same, SortKind::Trending, page(limit)).await?;
    }
    let missing = limit - i64::try_from(found.len()).unwrap_or(limit);
    if missing > 0 {
        let mut others = filter;
        if let Some(category) = category {
            others = doc! { "$and": [others, { "category": { "$ne": category } }] };
        }
        found.extend(posts::list(db, others, SortKind::Trending, page(missing)).await?);
    }
    found.truncate(usize::try_from(limit).unwrap_or(0));
    let mut posts = render(db, found).await?;
    unlock_for(db, viewer, &mut posts).await?;
    Ok(posts)
}
