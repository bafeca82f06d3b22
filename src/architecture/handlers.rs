//! Checks of the handlers (`src/routes/`) against the lower layers: no handler builds a
//! database document, and only the listed handler files still import `crate::persistence`
//! (a list that only shrinks).

use std::collections::BTreeSet;

use super::{code_lines_where, read_sources};

#[test]
fn no_handler_builds_a_database_filter() {
    let found: Vec<String> = code_lines_where(&[], |line| line.contains("doc!"))
        .into_iter()
        .filter(|at| at.starts_with("src/routes/"))
        .collect();
    assert!(
        found.is_empty(),
        "a handler builds a database document (`doc!`); give the query a function in \
         src/persistence/<area>.rs, the workflow one in src/services/<area>.rs, and call it:\n{}",
        found.join("\n")
    );
}

/// The handler files that still import `crate::persistence` (paths under `src/`). Handlers call a
/// service (`src/services/<area>.rs`) for what they need of the database; this list only
/// shrinks: a file leaves it when its handlers stop importing the storage layer, and no file
/// joins it.
const ROUTES_IMPORTING_PERSISTENCE: [&str; 105] = [
    "routes/admin/appeals.rs",
    "routes/admin/audit_log.rs",
    "routes/admin/block_post.rs",
    "routes/admin/contact/create.rs",
    "routes/admin/contact/handled.rs",
    "routes/admin/contact/list.rs",
    "routes/admin/contact/mod.rs",
    "routes/admin/contact/reply.rs",
    "routes/admin/email/statuses.rs",
    "routes/admin/overview.rs",
    "routes/admin/posts/list.rs",
    "routes/admin/reading_details.rs",
    "routes/admin/reports/acknowledge.rs",
    "routes/admin/reports/create.rs",
    "routes/admin/reports/get.rs",
    "routes/admin/reports/list.rs",
    "routes/admin/reports/mod.rs",
    "routes/admin/reports/review.rs",
    "routes/admin/reports/send_notification.rs",
    "routes/admin/settings.rs",
    "routes/admin/subscriptions/criteria.rs",
    "routes/admin/subscriptions/eligibility.rs",
    "routes/admin/subscriptions/milestones.rs",
    "routes/admin/subscriptions/mod.rs",
    "routes/admin/subscriptions/plans.rs",
    "routes/admin/users/block.rs",
    "routes/admin/users/delete.rs",
    "routes/admin/users/list.rs",
    "routes/admin/users/mod.rs",
    "routes/admin/users/role.rs",
    "routes/auth/change_password.rs",
    "routes/auth/google_login.rs",
    "routes/auth/login.rs",
    "routes/auth/logout.rs",
    "routes/auth/logout_all.rs",
    "routes/auth/mod.rs",
    "routes/auth/passkeys.rs",
    "routes/auth/reauth.rs",
    "routes/auth/reset_password.rs",
    "routes/auth/send_reset_otp.rs",
    "routes/auth/send_verify_otp.rs",
    "routes/auth/sessions.rs",
    "routes/auth/signup.rs",
    "routes/auth/two_factor.rs",
    "routes/auth/verify_email.rs",
    "routes/newsletter/mod.rs",
    "routes/payment/bank_details.rs",
    "routes/payment/bank_details/body.rs",
    "routes/post/all_posts.rs",
    "routes/post/analytics_post.rs",
    "routes/post/analytics_user.rs",
    "routes/post/appeal.rs",
    "routes/post/bookmark.rs",
    "routes/post/bookmark_status.rs",
    "routes/post/bookmarks.rs",
    "routes/post/create.rs",
    "routes/post/delete.rs",
    "routes/post/delivery.rs",
    "routes/post/following.rs",
    "routes/post/get_post.rs",
    "routes/post/input.rs",
    "routes/post/latest.rs",
    "routes/post/like.rs",
    "routes/post/public_posts.rs",
    "routes/post/revisions.rs",
    "routes/post/search.rs",
    "routes/post/search_users.rs",
    "routes/post/share.rs",
    "routes/post/suggested.rs",
    "routes/post/time_spent.rs",
    "routes/post/trending.rs",
    "routes/post/update.rs",
    "routes/post/user_posts.rs",
    "routes/post/view.rs",
    "routes/post/vote.rs",
    "routes/series.rs",
    "routes/site/feeds.rs",
    "routes/site/mod.rs",
    "routes/site/pages.rs",
    "routes/site/series.rs",
    "routes/subscription/analytics.rs",
    "routes/subscription/lists.rs",
    "routes/subscription/mod.rs",
    "routes/subscription/plans.rs",
    "routes/subscription/private_feed.rs",
    "routes/subscription/reminders.rs",
    "routes/subscription/status.rs",
    "routes/subscription/subscribe.rs",
    "routes/subscription/unsubscribe_author.rs",
    "routes/user/activity.rs",
    "routes/user/activity_clear.rs",
    "routes/user/consent.rs",
    "routes/user/delete_account.rs",
    "routes/user/export.rs",
    "routes/user/feedback_all.rs",
    "routes/user/feedback_check.rs",
    "routes/user/feedback_manual.rs",
    "routes/user/feedback_submit.rs",
    "routes/user/ip_location.rs",
    "routes/user/locations.rs",
    "routes/user/mod.rs",
    "routes/user/online.rs",
    "routes/user/save_location.rs",
    "routes/user/track_ip_location.rs",
    "routes/user/update_user.rs",
];

#[test]
fn routes_import_persistence_only_where_listed() {
    let importing: BTreeSet<String> = read_sources()
        .into_iter()
        .filter(|s| s.module.as_deref() == Some("routes") && s.uses("persistence"))
        .map(|s| s.file)
        .collect();
    let listed: BTreeSet<String> = ROUTES_IMPORTING_PERSISTENCE
        .iter()
        .map(|f| f.to_string())
        .collect();
    let new: Vec<&String> = importing.difference(&listed).collect();
    assert!(
        new.is_empty(),
        "these handler files import `crate::persistence`; put what they need in a service \
         (src/services/<area>.rs) and call it: {new:?}"
    );
    let done: Vec<&String> = listed.difference(&importing).collect();
    assert!(
        done.is_empty(),
        "these handler files no longer import `crate::persistence`: take them off \
         ROUTES_IMPORTING_PERSISTENCE in src/architecture.rs: {done:?}"
    );
}
