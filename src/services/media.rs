//! The media store's files as the site serves them (`GET /media/{name}`): only names the store
//! makes and only files it holds (`persistence::media`).

use std::path::PathBuf;

use crate::persistence::media;
use crate::state::AppState;

/// The file of `name` in the media store, when the store made such a name and holds the file.
pub async fn servable_file(state: &AppState, name: &str) -> Option<PathBuf> {
    media::servable_file(&state.settings.server.media_dir, name).await
}
