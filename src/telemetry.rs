//! Logging: readable in development, JSON in production; every request line carries its id
//! (the request span from `tracing-actix-web`).

use tracing_subscriber::{fmt, layer::SubscriberExt, util::SubscriberInitExt, EnvFilter};

use crate::config::{LogFormat, LogSettings};

/// Installs the global subscriber once; later calls are ignored (tests call it many times).
pub fn init(settings: &LogSettings) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&settings.level));
    let registry = tracing_subscriber::registry().with(filter);
    let result = match settings.format {
        LogFormat::Json => registry
            .with(
                fmt::layer()
                    .json()
                    .with_current_span(true)
                    .with_span_list(false),
            )
            .try_init(),
        LogFormat::Pretty => registry.with(fmt::layer().with_target(false)).try_init(),
    };
    if result.is_ok() {
        let _ = tracing_log::LogTracer::init();
    }
}
