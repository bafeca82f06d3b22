//! Reading other platforms' archives and feeds: each module reads one format into plain values
//! (no I/O, no store), and `html` turns the HTML they hold into the editor's blocks.

pub mod feed;
pub mod ghost;
pub mod html;
pub mod medium;
pub mod substack;
pub mod wxr;

/// Why an export or feed could not be read; the message is for the writer (it names the line or
/// entry where it can).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError(pub String);

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where the other platforms' real export files are (`../shared/fixtures/import/` beside the
/// project), for the tests that read them.
#[cfg(test)]
pub(crate) fn fixture_path(relative: &str) -> std::path::PathBuf {
    let root = std::env::var_os("PRESSROOM_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures")
        });
    root.join("import").join(relative)
}
