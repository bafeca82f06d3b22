//! Removing an account (the administrators' user deletion, both API families). The account's
//! sessions end first; then its posts go through the one post deletion, its engagement is
//! removed with the counters it fed recounted, the records listed in
//! `persistence::account_records` are deleted or anonymised, and the user document goes last,
//! so a removal that fails half-way can simply be run again.

use std::collections::BTreeSet;

use actix_web::web;
use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::mail::{MailKind, Outgoing};
use crate::persistence::account_deletions::{self, AccountDeletion};
use crate::persistence::account_records::{self, DELETED_WITH_ACCOUNT, KEPT_ANONYMISED};
use crate::persistence::likes::{self, MarkKind};
use crate::persistence::users::Role;
use crate::persistence::users::{self, User};
use crate::persistence::{bookmarks, comments, email_logs, graph, media, now, posts, votes};
use crate::services::deletion::delete_post_quietly;
use crate::services::notify;
use crate::state::AppState;

/// What a removal took with it.
#[derive(Debug, Default, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Removal {
    pub posts: u64,
    pub comments: u64,
    pub likes: u64,
    pub bookmarks: u64,
    pub votes: u64,
    pub other_records: u64,
    pub anonymised_records: u64,
}

/// Removes `user` and everything that is theirs; `by` is the administrator doing it. The
/// caller has checked that `user` may be removed (not the caller, not the last administrator).
pub async fn remove_account(
    state: &web::Data<AppState>,
    user: &User,
    by: ObjectId,
) -> ApiResult<Removal> {
    let db = &state.db;
    let id = user.id;
    let mut removal = Removal::default();

    // No session of theirs outlives this request, even if a later step fails.
    users::set_blocked(db, id, true).await?;
    live::sessions_ended(&state.realtime, &id.to_hex());
    let followers = graph::followers(db, id).await?;

    for post in account_records::ids_in(db, posts::COLLECTION, doc! { "author": id }, "_id").await?
    {
        if delete_post_quietly(state, post).await?.is_some() {
            removal.posts += 1;
        }
    }

    // Their comments on other posts, with the replies under them.
    for comment in comments::by_user(db, id).await? {
        removal.comments += comments::delete_with_replies(db, &comment).await?;
    }

    // Their avatar's file goes when nothing else uses it.
    media::release_unused_by(
        db,
        &state.settings.server.media_dir,
        media::MediaUse::Avatar(id),
        &[],
    )
    .await?;

    removal.likes = remove_marks(db, likes::LIKE, id).await?;
    removal.bookmarks = remove_marks(db, bookmarks::BOOKMARK, id).await?;
    removal.votes = remove_votes(state, id).await?;

    // Notifications they caused go too; their addressees' badges follow.
    let told = account_records::ids_in(
        db,
        "notifications",
        doc! { "senderId": id, "userId": { "$ne": id } },
        "userId",
    )
    .await?;
    removal.other_records +=
        account_records::delete_in(db, "notifications", doc! { "senderId": id }).await?;
    for addressee in told {
        crate::services::unread::forget(state, addressee).await;
        notify::push_unread_count(state, addressee).await;
    }

    // Live money first (subscriptions, plans, bank details), while the account still exists.
    removal.other_records +=
        crate::services::billing::accounts::settle_removed_account(state, id, by).await?;

    for (collection, field) in DELETED_WITH_ACCOUNT {
        removal.other_records +=
            account_records::delete_in(db, collection, doc! { *field: id }).await?;
    }
    removal.other_records += email_logs::delete_for_email(db, &user.email).await?;
    for (collection, field, personal) in KEPT_ANONYMISED {
        removal.anonymised_records +=
            account_records::anonymise_in(db, collection, field, id, personal).await?;
    }
    state.live.forget_location(id);

    account_records::bury(db, id, by, now()).await?;
    users::delete(db, id).await?;
    crate::services::counts::account_posts_removed(state, followers);
    Ok(removal)
}

/// Deletes the user's marks of one kind and recounts the posts they were on.
async fn remove_marks(
    db: &crate::persistence::Db,
    kind: MarkKind,
    user: ObjectId,
) -> ApiResult<u64> {
    let filter = doc! { "userId": user };
    let marked = account_records::ids_in(db, kind.collection, filter.clone(), "postId").await?;
    let removed = account_records::delete_in(db, kind.collection, filter).await?;
    for post in marked {
        likes::recount(db, kind, post).await?;
    }
    Ok(removed)
}

/// Deletes the user's poll votes and recounts the polls they were in.
async fn remove_votes(state: &AppState, user: ObjectId) -> ApiResult<u64> {
    let db = &state.db;
    let filter = doc! { "userId": user };
    let polls: BTreeSet<(ObjectId, String)> =
        account_records::find_in(db, votes::COLLECTION, filter.clone())
            .await?
            .iter()
            .filter_map(|d| {
                Some((
                    d.get_object_id("postId").ok()?,
                    d.get_str("blockId").ok()?.to_string(),
                ))
            })
            .collect();
    let removed = account_records::delete_in(db, votes::COLLECTION, filter).await?;
    for (post, block) in polls {
        votes::sync_counts(db, post, &block).await?;
    }
    Ok(removed)
}

/// Signing in during the grace period: the deletion is cancelled and the user told by email.
/// Answers whether there was one to cancel.
pub async fn cancel_on_sign_in(state: &AppState, user: &User) -> ApiResult<bool> {
    if !crate::persistence::account_deletions::cancel(&state.db, user.id).await? {
        return Ok(false);
    }
    let body = format!(
        "Hello {},\n\nYou signed in, so your account will not be deleted. Everything stays as it was.\n\nIf you still want to leave, you can ask again from the settings page.\n",
        user.name
    );
    let mail = crate::mail::Outgoing::new(
        crate::mail::MailKind::Security,
        &user.email,
        "Your account will not be deleted",
        body,
    )
    .for_user(user.id);
    state.mailer.send_mail(mail).await;
    crate::audit::record_by(
        state,
        user,
        crate::audit::Action::AccountDeletionCancel,
        crate::audit::Target::user(user),
        serde_json::json!({ "by": "sign-in" }),
    )
    .await;
    tracing::info!(user_id = %user.id, "account deletion cancelled by signing in");
    Ok(true)
}

pub const MSG_LAST_ADMIN: &str =
    "You are the only administrator. Make someone else an administrator before deleting your account.";

/// Schedules the deletion of `me`'s account (confirmed) after the grace period: every session
/// ends, and the person is told by email how to keep the account. The last administrator
/// cannot. Answers when the deletion is due (RFC 3339).
pub async fn schedule_deletion(state: &AppState, me: &AuthUser) -> ApiResult<String> {
    if me.user.role == Role::Admin
        && users::count_active_admins(&state.db, Some(me.user.id)).await? == 0
    {
        return Err(ApiError::conflict(MSG_LAST_ADMIN));
    }
    let now = chrono::Utc::now();
    let when = now + state.settings.accounts.grace();
    let record = account_deletions::schedule(
        &state.db,
        &AccountDeletion {
            id: me.user.id,
            requested_at: mongodb::bson::DateTime::from_chrono(now),
            scheduled_at: mongodb::bson::DateTime::from_chrono(when),
            lease_until: None,
        },
    )
    .await?;
    users::end_sessions(&state.db, me.user.id).await?;
    crate::live::sessions_ended(&state.realtime, &me.id_hex());
    let at = record
        .scheduled_at
        .to_chrono()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let body = format!(
        "Hello {},\n\nYou asked us to delete your Pressroom account. It will be deleted on {} (UTC), with your posts, comments, followers and the rest of your data; subscriptions to you end and subscribers are refunded as our terms say.\n\nChanged your mind? Sign in before then and the deletion is cancelled:\n{}\n\nYou can download a copy of your data from the settings page until then.\n",
        me.user.name,
        record.scheduled_at.to_chrono().format("%Y-%m-%d %H:%M"),
        state.settings.public_link("/login"),
    );
    let mail = Outgoing::new(
        MailKind::Security,
        &me.user.email,
        "Your account is scheduled for deletion",
        body,
    )
    .for_user(me.user.id);
    state.mailer.send_mail(mail).await;
    crate::audit::record(
        state,
        me,
        crate::audit::Action::AccountDeletionSchedule,
        crate::audit::Target::user(&me.user),
        serde_json::json!({ "deletionScheduledAt": at }),
    )
    .await;
    tracing::info!(user_id = %me.user.id, at = %at, "account deletion scheduled");
    Ok(at)
}
