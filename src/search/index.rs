//! Building the search indexes and applying changes to them.

use super::*;

impl Search {
    /// The post documents of these ids from the read index (`None`: the post is gone).
    /// The documents of these posts from the read index; `bulk` for a build's batches, which get
    /// the long time limit of bulk loads.
    async fn post_docs(
        &self,
        gen: &Gen,
        ids: &[ObjectId],
        bulk: bool,
    ) -> anyhow::Result<Vec<(ObjectId, Option<TantivyDocument>)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for id in ids {
            pipe.cmd("HMGET")
                .arg(gen.post(id))
                .arg(&["v", "st", "a", "s", "vi", "b", "t"]);
        }
        let feeds = &self.inner.feeds;
        let rows: Vec<Vec<Option<String>>> = if bulk {
            feeds.query_bulk(BUILD_LIMIT, &pipe).await?
        } else {
            feeds.query(&pipe).await?
        };
        let f = self.inner.post_fields;
        Ok(ids
            .iter()
            .zip(rows)
            .map(|(id, row)| {
                let field = |i: usize| row.get(i).cloned().flatten();
                let Some(card) =
                    field(0).and_then(|v| serde_json::from_str::<serde_json::Value>(&v).ok())
                else {
                    return (*id, None);
                };
                let mut doc = TantivyDocument::default();
                doc.add_text(f.id, id.to_hex());
                let title = card["title"].as_str().unwrap_or_default();
                doc.add_text(f.title, title);
                doc.add_text(f.title_pairs, title);
                for tag in card["tags"].as_array().into_iter().flatten() {
                    let tag = tag.as_str().unwrap_or_default();
                    doc.add_text(f.tags, tag);
                    doc.add_text(f.tags_pairs, tag);
                }
                let body = field(1).unwrap_or_default();
                doc.add_text(f.body, &body);
                doc.add_text(f.body_pairs, body);
                doc.add_text(f.author, field(2).unwrap_or_default());
                let listable = field(3).as_deref() == Some("published")
                    && field(4).as_deref() == Some("Public")
                    && field(5).as_deref() == Some("0");
                doc.add_u64(f.listable, u64::from(listable));
                doc.add_i64(
                    f.created,
                    field(6).and_then(|t| t.parse().ok()).unwrap_or(0),
                );
                let (hi, lo) = split_id(id);
                doc.add_u64(f.id_hi, hi);
                doc.add_u64(f.id_lo, lo);
                (*id, Some(doc))
            })
            .collect())
    }

    pub(super) async fn build_posts(&self, gen: &Gen) -> anyhow::Result<()> {
        let redis = self.inner.feeds.redis().clone();
        let key = gen.slugs();
        let mut ids: Vec<ObjectId> = Vec::new();
        let mut cursor: u64 = 0;
        loop {
            let key = key.clone();
            let (next, items): (u64, Vec<String>) = redis
                .run_for(BUILD_LIMIT, |mut c| async move {
                    redis::cmd("HSCAN")
                        .arg(key)
                        .arg(cursor)
                        .arg("COUNT")
                        .arg(5000)
                        .query_async(&mut c)
                        .await
                })
                .await?;
            ids.extend(
                items
                    .chunks_exact(2)
                    .filter_map(|pair| ObjectId::parse_str(&pair[1]).ok()),
            );
            if next == 0 {
                break;
            }
            cursor = next;
        }
        let mut docs = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(BUILD_BATCH) {
            docs.extend(
                self.post_docs(gen, chunk, true)
                    .await?
                    .into_iter()
                    .filter_map(|(_, d)| d),
            );
        }
        // Oldest first, as later posts will follow: the newest matches are then read first
        // (`newest`).
        let f = self.inner.post_fields;
        let key = |d: &TantivyDocument| {
            let num = |field: Field| d.get_first(field).and_then(|v| v.as_u64());
            (
                d.get_first(f.created).and_then(|v| v.as_i64()),
                num(f.id_hi),
                num(f.id_lo),
            )
        };
        docs.sort_by_cached_key(key);
        let search = self.clone();
        tokio::task::spawn_blocking(move || search.inner.posts.replace_all(docs)).await??;
        Ok(())
    }

    pub(super) async fn apply_posts(&self, gen: &Gen, ids: &[ObjectId]) -> anyhow::Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let changes: Vec<(String, Option<TantivyDocument>)> = self
            .post_docs(gen, ids, false)
            .await?
            .into_iter()
            .map(|(id, doc)| (id.to_hex(), doc))
            .collect();
        let search = self.clone();
        let id_field = self.inner.post_fields.id;
        tokio::task::spawn_blocking(move || search.inner.posts.apply(id_field, changes)).await??;
        Ok(())
    }

    fn user_doc(&self, u: &users::User) -> TantivyDocument {
        let f = self.inner.user_fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.id, u.id.to_hex());
        doc.add_text(f.name, &u.name);
        doc.add_text(f.email, &u.email);
        doc.add_text(f.email_text, &u.email);
        if let Some(avatar) = &u.avatar {
            doc.add_text(f.avatar, avatar);
        }
        doc.add_u64(f.blocked, u64::from(u.blocked));
        doc.add_i64(f.total_posts, u.total_posts);
        doc
    }

    pub(super) async fn build_users(&self) -> anyhow::Result<()> {
        let mut cursor = users::stream_all(self.inner.feeds.bulk_db()).await?;
        let mut docs = Vec::new();
        while let Some(u) = cursor.try_next().await? {
            docs.push(self.user_doc(&u));
        }
        let search = self.clone();
        tokio::task::spawn_blocking(move || search.inner.users.replace_all(docs)).await??;
        Ok(())
    }

    pub(super) async fn apply_users(&self, ids: &[ObjectId]) -> anyhow::Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let found = futures_util::future::try_join_all(
            ids.iter().map(|id| users::find_by_id(&self.inner.db, *id)),
        )
        .await?;
        let changes: Vec<(String, Option<TantivyDocument>)> = ids
            .iter()
            .zip(found)
            .map(|(id, user)| (id.to_hex(), user.map(|u| self.user_doc(&u))))
            .collect();
        let search = self.clone();
        let id_field = self.inner.user_fields.id;
        tokio::task::spawn_blocking(move || search.inner.users.apply(id_field, changes)).await??;
        Ok(())
    }
}
