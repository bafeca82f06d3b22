//! Publishes scheduled posts when their `publishAt` arrives.

use std::time::Duration;

use actix_web::web;

use crate::persistence::{now, posts, user_directory, DbResult};
use crate::state::AppState;

/// How often due posts are looked for: a scheduled post appears at most this late.
pub const SCHEDULE_CHECK_INTERVAL: Duration = Duration::from_secs(5);

/// Publishes every due post; returns how many were published.
pub async fn publish_due(state: &web::Data<AppState>) -> DbResult<usize> {
    let at = now();
    let due = match state.feeds.due_scheduled(at).await {
        Ok(ids) => ids,
        Err(_) => posts::due_ids(&state.db, at).await?,
    };
    if due.is_empty() {
        return Ok(0);
    }
    let published = posts::publish_due(&state.db, &due, at).await?;
    for post in &published {
        user_directory::add_to_total_posts(&state.db, post.author, 1).await?;
        tracing::info!(post = %post.id, "scheduled post published");
        crate::services::counts::post_counts_updated(state, post.author, post.is_listable());
        super::announce::post_became_visible(state, post, None).await;
        crate::services::webhooks::post_changed(state, None, post);
        crate::services::series::part_visibility_changed(state, post).await;
        let reason = crate::domain::revisions::Reason::Published;
        if let Err(e) = crate::services::revisions::record(state, post, None, reason).await {
            tracing::warn!(post = %post.id, error = %e, "could not save the published revision");
        }
    }
    Ok(published.len())
}

pub fn spawn(state: web::Data<AppState>) {
    crate::metrics::job_declared("scheduled-publishing", SCHEDULE_CHECK_INTERVAL);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SCHEDULE_CHECK_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if !super::take_turn(&state, "scheduled-publishing", SCHEDULE_CHECK_INTERVAL).await {
                continue;
            }
            let result = publish_due(&state).await;
            crate::metrics::job_ran(
                "scheduled-publishing",
                SCHEDULE_CHECK_INTERVAL,
                result.is_ok(),
            );
            if let Err(e) = result {
                tracing::debug!(error = %e, "could not publish scheduled posts");
            }
        }
    });
}
