//! `/api/achievement/*`: badges earned from real metrics. The catalogue, its thresholds and the
//! answers are `services::achievements`.

pub mod achievements;
pub mod calculate;
