//! The announcement's wait for the emails held back: a follower with `instant` alerts who was
//! pushed the post is emailed it only if they have not opened it when the hold ends
//! (`push.email_hold_seconds`; see docs/decisions.md, "Web Push, decided by presence").

use super::*;
use crate::persistence::views;

impl Run<'_> {
    /// One batch of the emails held back: each sent unless its reader has opened the post
    /// meanwhile; `None` when there are no more.
    pub(super) async fn held_batch(&mut self) -> anyhow::Result<Option<ObjectId>> {
        let db = &self.state.db;
        let held = post_mail::held_after(db, self.post.id, self.announcement.cursor, BATCH).await?;
        let Some(last) = held.last().and_then(|d| d.get_object_id("_id").ok()) else {
            return Ok(None);
        };
        let candidates: Vec<Candidate> = held.iter().filter_map(Candidate::of_claim).collect();
        let readers: Vec<ObjectId> = candidates.iter().filter_map(|c| c.user).collect();
        let opened = views::opened_by(db, self.post.id, &readers).await?;
        let unopened: Vec<Candidate> = candidates
            .into_iter()
            .filter(|c| !c.user.is_some_and(|u| opened.contains(&u)))
            .collect();
        if !opened.is_empty() {
            tracing::debug!(post = %self.post.id, opened = opened.len(), "readers who opened a pushed post are not emailed it");
        }
        self.emails(unopened).await?;
        Ok(Some(last))
    }

    /// Lets the announcement rest until the hold of the emails held back ends (any node's
    /// worker then takes it and sends those left); `false` when none were held.
    pub(super) async fn defer_held(&mut self) -> anyhow::Result<bool> {
        let db = &self.state.db;
        if post_mail::held_after(db, self.post.id, None, 1)
            .await?
            .is_empty()
        {
            return Ok(false);
        }
        let hold_ms = self.state.settings.push.email_hold_seconds.max(0) * 1000;
        let until = mongodb::bson::DateTime::from_millis(now().timestamp_millis() + hold_ms);
        if !post_mail::defer(db, self.post.id, &self.owner, Phase::Held, until).await? {
            anyhow::bail!(
                "the announcement of {} was taken over; stopping",
                self.post.id
            );
        }
        self.announcement.phase = Phase::Held;
        push_figures(self.state, &self.announcement);
        Ok(true)
    }
}
