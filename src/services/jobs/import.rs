//! The import worker (`services::import::write`): reads uploads into previews and writes
//! confirmed imports.

use std::time::Duration;

use actix_web::web;

use crate::state::AppState;

/// The worker: looks for imports every `import.poll_ms`, at once when one is started or confirmed.
pub fn spawn(state: web::Data<AppState>) {
    let every = Duration::from_millis(state.settings.import.poll_ms.max(50));
    crate::metrics::job_declared("import", every);
    tokio::spawn(async move {
        loop {
            let result = crate::services::import::write::run_pending(&state).await;
            crate::metrics::job_ran("import", every, result.is_ok());
            if let Err(e) = result {
                tracing::warn!(error = %e, "could not run imports");
            }
            let _ = tokio::time::timeout(every, state.wakes.imports.notified()).await;
        }
    });
}
