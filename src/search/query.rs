//! Queries: posts and users matching a text.

use super::*;

impl Search {
    /// Posts matching the text, best first (relevance, then newest), as the scope allows: posts
    /// anyone may find, and the viewer's own of every status.
    pub async fn posts(
        &self,
        text: &str,
        scope: PostScope,
        page: PageRequest,
    ) -> Result<PostHits, NotReady> {
        if !self.posts_ready() {
            return Err(NotReady);
        }
        let search = self.clone();
        let text = text.to_string();
        tokio::task::spawn_blocking(move || search.search_posts(&text, &scope, page))
            .await
            .map_err(|_| NotReady)?
    }

    /// How many matches are ranked at most.
    pub fn ranked_bound(&self) -> usize {
        self.inner.ranked_bound.load(Ordering::Relaxed)
    }

    /// Ranks at most this many matches from now on (at least 1): a smaller bound lets a site's
    /// behaviour beyond it be seen with a few posts.
    pub fn set_ranked_bound(&self, bound: usize) {
        self.inner
            .ranked_bound
            .store(bound.max(1), Ordering::Relaxed);
    }

    fn search_posts(
        &self,
        text: &str,
        scope: &PostScope,
        page: PageRequest,
    ) -> Result<PostHits, NotReady> {
        let f = self.inner.post_fields;
        let searcher = self.inner.posts.searcher();
        let fields = [
            (f.title, Some(f.title_pairs), 3.0),
            (f.tags, Some(f.tags_pairs), 2.0),
            (f.body, Some(f.body_pairs), 1.0),
        ];
        let Some(matching) = text::in_any(Some(&searcher), &fields, text) else {
            return Ok(PostHits {
                ids: Vec::new(),
                total: 0,
                more: false,
            });
        };
        let listable: Box<dyn Query> = Box::new(TermQuery::new(
            Term::from_field_u64(f.listable, 1),
            IndexRecordOption::Basic,
        ));
        let author_term = |a: &ObjectId| -> Box<dyn Query> {
            Box::new(TermQuery::new(
                Term::from_field_text(f.author, &a.to_hex()),
                IndexRecordOption::Basic,
            ))
        };
        let visible: Box<dyn Query> = match scope.viewer {
            Some(me) => Box::new(BooleanQuery::new(vec![
                (Occur::Should, listable),
                (Occur::Should, author_term(&me)),
            ])),
            None => listable,
        };
        let mut clauses = vec![(Occur::Must, matching), (Occur::Must, visible)];
        if let Some(a) = &scope.author {
            clauses.push((Occur::Must, author_term(a)));
        }
        for h in &scope.hidden {
            clauses.push((Occur::MustNot, author_term(h)));
        }
        let query = BooleanQuery::new(clauses);
        let weight = query
            .weight(EnableScoring::enabled_from_searcher(&searcher))
            .map_err(|_| NotReady)?;
        // Only the newest matches are ranked: the cost of a query follows the bound, not the
        // number of posts that match (docs/decisions.md, "The search index").
        let found = self
            .inner
            .recency
            .newest(&searcher, weight.as_ref(), self.ranked_bound())
            .map_err(|_| NotReady)?;
        let mut ranked = found.hits;
        ranked.sort_unstable_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| (b.created, b.hi, b.lo).cmp(&(a.created, a.hi, a.lo)))
        });
        let total = ranked.len() as u64;
        let limit = usize::try_from(page.limit).unwrap_or(0).max(1);
        let skip = usize::try_from(page.skip).unwrap_or(0);
        let hits: Vec<newest::Hit> = match page.after {
            None => ranked.into_iter().skip(skip).take(limit).collect(),
            Some(after) => {
                // Continue after the anchor: the last hit created at `after` (or the one with
                // `afterId`); without one, the hits created before `after`.
                let at = after.timestamp_millis();
                let wanted = page.after_id.map(|id| split_id(&id));
                let anchor = ranked
                    .iter()
                    .rposition(|h| h.created == at && wanted.is_none_or(|w| w == (h.hi, h.lo)));
                match anchor {
                    Some(i) => ranked.into_iter().skip(i + 1).take(limit).collect(),
                    None => ranked
                        .into_iter()
                        .filter(|h| h.created < at)
                        .take(limit)
                        .collect(),
                }
            }
        };
        // The id is in the ranking key (its fast fields): no stored document is read.
        let ids = hits.iter().map(|h| join_id(h.hi, h.lo)).collect();
        Ok(PostHits {
            ids,
            total,
            more: !found.complete,
        })
    }

    /// Users whose name matches the text (as a phrase, the last word as a prefix) or whose email
    /// is exactly the text; administrators also find users by part of their email. Blocked users
    /// are left out. Most posts first, then by name; at most `MAX_USER_RESULTS`.
    pub async fn users(&self, text: &str, admin: bool) -> Result<Vec<FoundUser>, NotReady> {
        if !self.users_ready() {
            return Err(NotReady);
        }
        let search = self.clone();
        let text = text.to_string();
        tokio::task::spawn_blocking(move || search.search_users(&text, admin))
            .await
            .map_err(|_| NotReady)?
    }

    fn search_users(&self, text: &str, admin: bool) -> Result<Vec<FoundUser>, NotReady> {
        let f = self.inner.user_fields;
        let mut fields = vec![(f.name, None, 1.0)];
        if admin {
            fields.push((f.email_text, None, 1.0));
        }
        let mut either: Vec<(Occur, Box<dyn Query>)> = vec![(
            Occur::Should,
            Box::new(TermQuery::new(
                Term::from_field_text(f.email, text.trim()),
                IndexRecordOption::Basic,
            )),
        )];
        if let Some(q) = text::in_any(None, &fields, text) {
            either.push((Occur::Should, q));
        }
        let query = BooleanQuery::new(vec![
            (
                Occur::Must,
                Box::new(BooleanQuery::new(either)) as Box<dyn Query>,
            ),
            (
                Occur::MustNot,
                Box::new(TermQuery::new(
                    Term::from_field_u64(f.blocked, 1),
                    IndexRecordOption::Basic,
                )),
            ),
        ]);
        let searcher = self.inner.users.searcher();
        let found: Vec<(Score, DocAddress)> = searcher
            .search(
                &query,
                &TopDocs::with_limit(USER_CANDIDATES).order_by_score(),
            )
            .map_err(|_| NotReady)?;
        let mut hits: Vec<FoundUser> = found
            .into_iter()
            .filter_map(|(_, addr)| {
                let doc: TantivyDocument = searcher.doc(addr).ok()?;
                let text_of = |field: Field| {
                    doc.get_first(field)
                        .and_then(|v| v.as_str().map(str::to_string))
                };
                Some(FoundUser {
                    id: ObjectId::parse_str(text_of(f.id)?).ok()?,
                    name: text_of(f.name).unwrap_or_default(),
                    email: text_of(f.email).unwrap_or_default(),
                    avatar: text_of(f.avatar),
                    total_posts: doc
                        .get_first(f.total_posts)
                        .and_then(|v| v.as_i64())
                        .unwrap_or(0),
                })
            })
            .collect();
        hits.sort_by(|a, b| {
            b.total_posts
                .cmp(&a.total_posts)
                .then_with(|| a.name.cmp(&b.name))
                .then_with(|| a.id.cmp(&b.id))
        });
        hits.truncate(MAX_USER_RESULTS);
        Ok(hits)
    }
}
