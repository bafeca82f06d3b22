//! The announcement's last phase: the followers of the post's series, told by their alerts on
//! the series (see docs/decisions.md, "Series").

use super::*;

impl Run<'_> {
    /// Reads the post's series when the series phase starts (the post may have joined one since
    /// the run began).
    pub(super) async fn load_series(&mut self) -> anyhow::Result<()> {
        if self.series.is_some() {
            return Ok(());
        }
        let db = &self.state.db;
        let series_id = posts::find_by_id(db, self.post.id)
            .await?
            .and_then(|p| p.series_id);
        self.series = match series_id {
            Some(id) => series_store::find_by_id(db, id).await?,
            None => None,
        };
        Ok(())
    }

    /// One batch of the followers of the post's series; `None` when there are no more (or the
    /// post is in no series). A reader who follows the author too was told in the first phase:
    /// the notice's `_id` and the email's claim are per post and reader, so nobody hears twice.
    pub(super) async fn series_batch(&mut self) -> anyhow::Result<Option<ObjectId>> {
        self.load_series().await?;
        let db = &self.state.db;
        let Some(series) = self.series.clone() else {
            return Ok(None);
        };
        let page =
            series_store::followers_page(db, series.id, self.announcement.cursor, BATCH).await?;
        let Some(last) = page.last().map(|(id, _)| *id) else {
            return Ok(None);
        };
        let ids: Vec<ObjectId> = page.iter().map(|(id, _)| *id).collect();
        let people: HashMap<ObjectId, User> = users::find_many(db, &ids)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
        let told: Vec<(&User, Alerts)> = page
            .iter()
            .filter_map(|(id, alerts)| people.get(id).map(|u| (u, *alerts)))
            .filter(|(u, alerts)| {
                *alerts != Alerts::Off
                    && u.id != self.post.author
                    && !u.blocked
                    && !self.hidden.contains(&u.id)
            })
            .collect();
        let for_series = series_notice(&self.notice, &series);
        let general = std::mem::replace(&mut self.notice, for_series);
        let told_all = self.tell(&told, Recipient::SeriesFollower).await;
        self.notice = general;
        told_all?;
        Ok(Some(last))
    }
}

/// The notice of a new part to a series' followers (the same notice otherwise).
fn series_notice(general: &Notification, series: &Series) -> Notification {
    let mut n = general.clone();
    n.content = format!(
        "New part in \"{}\": {}",
        series.title,
        general.post_title.as_deref().unwrap_or_default()
    );
    n
}
