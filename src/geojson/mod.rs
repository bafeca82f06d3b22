//! Map outlines as GeoJSON FeatureCollections, derived from Natural Earth data (public domain) as
//! shipped by the npm package `world-atlas` (TopoJSON, installed by the scripts under
//! `data/geojson/`). Converted once on first use and kept in memory. An outline that cannot be
//! made (the data is not installed) is an error the HTTP edge answers with 503.

pub mod topojson;

use std::path::PathBuf;

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::OnceCell;

/// The detailed countries file (India's outline).
pub const DETAILED_FILE: &str = "countries-50m.json";
/// The light countries file (the world map).
pub const LIGHT_FILE: &str = "countries-110m.json";
/// World-atlas object holding the countries.
pub const COUNTRIES: &str = "countries";
/// ISO 3166-1 numeric code of India, the id world-atlas gives its feature.
pub const INDIA_ID: &str = "356";
/// How long clients may cache an outline, in seconds.
pub const CACHE_SECONDS: u32 = 86_400;

/// The converted outlines, made on first request.
pub struct GeoData {
    dir: PathBuf,
    india: OnceCell<Bytes>,
    world: OnceCell<Bytes>,
}

impl GeoData {
    /// Outlines read from the world-atlas files in `dir`.
    pub fn new(dir: PathBuf) -> Self {
        GeoData {
            dir,
            india: OnceCell::new(),
            world: OnceCell::new(),
        }
    }

    async fn convert(&self, file: &'static str, keep: fn(&Value) -> bool) -> anyhow::Result<Bytes> {
        let path = self.dir.join(file);
        let out = actix_web::web::block(move || -> anyhow::Result<Bytes> {
            let text = std::fs::read(&path)
                .map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
            let topology: Value = serde_json::from_slice(&text)?;
            let fc = topojson::feature_collection(&topology, COUNTRIES, keep)?;
            if fc["features"].as_array().is_none_or(Vec::is_empty) {
                anyhow::bail!("{} has no matching features", path.display());
            }
            Ok(Bytes::from(serde_json::to_vec(&fc)?))
        })
        .await?;
        out.map_err(|e| e.context("map data is not installed (scripts/run installs it)"))
    }

    /// India's outline.
    pub async fn india(&self) -> anyhow::Result<Bytes> {
        self.india
            .get_or_try_init(|| self.convert(DETAILED_FILE, |g| g["id"] == INDIA_ID))
            .await
            .cloned()
    }

    /// Every country's outline.
    pub async fn world(&self) -> anyhow::Result<Bytes> {
        self.world
            .get_or_try_init(|| self.convert(LIGHT_FILE, |_| true))
            .await
            .cloned()
    }
}
