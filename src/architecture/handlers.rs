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
const ROUTES_IMPORTING_PERSISTENCE: [&str; 17] = [
    "routes/admin/subscriptions/criteria.rs",
    "routes/admin/subscriptions/eligibility.rs",
    "routes/admin/subscriptions/milestones.rs",
    "routes/admin/subscriptions/mod.rs",
    "routes/admin/subscriptions/plans.rs",
    "routes/newsletter/mod.rs",
    "routes/payment/bank_details.rs",
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
