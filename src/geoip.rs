//! IP geolocation from a local database, never an outside service: the free DB-IP "City Lite"
//! database (CC BY 4.0) in MaxMind DB format, installed by the scripts under `data/geoip/`.
//! Private, loopback and unknown addresses, or a missing database, give the spec's defaults:
//! coordinates 0 and `Unknown` names.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Text of a part of a location nobody knows (seed 000 §3 "User location").
pub const UNKNOWN: &str = "Unknown";

/// Where an address is, as far as the database knows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IpPlace {
    pub latitude: f64,
    pub longitude: f64,
    pub city: String,
    pub country: String,
    /// ISO 3166-1 alpha-2 code, when known.
    pub country_code: Option<String>,
    pub state: String,
    pub pincode: String,
}

impl IpPlace {
    /// The place of an address nobody can locate.
    pub fn unknown() -> Self {
        IpPlace {
            latitude: 0.0,
            longitude: 0.0,
            city: UNKNOWN.into(),
            country: UNKNOWN.into(),
            country_code: None,
            state: UNKNOWN.into(),
            pincode: UNKNOWN.into(),
        }
    }

    /// Whether the database placed the address at all.
    pub fn is_known(&self) -> bool {
        self.country_code.is_some() || self.country != UNKNOWN
    }
}

/// The database reader; without a database every address is unknown.
pub struct GeoIp {
    reader: Option<maxminddb::Reader<Vec<u8>>>,
}

#[derive(Deserialize, Default)]
struct Named {
    #[serde(default)]
    names: BTreeMap<String, String>,
    #[serde(default)]
    iso_code: Option<String>,
}

impl Named {
    fn english(&self) -> Option<String> {
        self.names
            .get("en")
            .or_else(|| self.names.values().next())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    }
}

#[derive(Deserialize, Default)]
struct Location {
    #[serde(default)]
    latitude: Option<f64>,
    #[serde(default)]
    longitude: Option<f64>,
}

#[derive(Deserialize, Default)]
struct Postal {
    #[serde(default)]
    code: Option<String>,
}

#[derive(Deserialize, Default)]
struct Record {
    #[serde(default)]
    city: Named,
    #[serde(default)]
    country: Named,
    #[serde(default)]
    subdivisions: Vec<Named>,
    #[serde(default)]
    location: Location,
    #[serde(default)]
    postal: Postal,
}

impl GeoIp {
    /// Opens the database at `path`; a missing or unreadable file is logged and leaves every
    /// address unknown (the server still runs).
    pub fn open(path: &Path) -> Self {
        match maxminddb::Reader::open_readfile(path) {
            Ok(reader) => {
                tracing::info!(path = %path.display(), "IP geolocation database loaded");
                GeoIp {
                    reader: Some(reader),
                }
            }
            Err(e) => {
                tracing::warn!(
                    path = %path.display(),
                    error = %e,
                    "no IP geolocation database; every address will be Unknown (scripts/run installs it)"
                );
                GeoIp { reader: None }
            }
        }
    }

    /// A reader that knows no address.
    pub fn disabled() -> Self {
        GeoIp { reader: None }
    }

    /// Whether a database is loaded.
    pub fn is_loaded(&self) -> bool {
        self.reader.is_some()
    }

    /// Where `ip` is; unknown for private, loopback and unlisted addresses.
    pub fn locate(&self, ip: Option<IpAddr>) -> IpPlace {
        let (Some(reader), Some(ip)) = (&self.reader, ip.map(canonical)) else {
            return IpPlace::unknown();
        };
        if !is_public(ip) {
            return IpPlace::unknown();
        }
        let record = match reader.lookup(ip).and_then(|r| r.decode::<Record>()) {
            Ok(Some(record)) => record,
            Ok(None) => return IpPlace::unknown(),
            Err(e) => {
                tracing::debug!(%ip, error = %e, "IP lookup failed");
                return IpPlace::unknown();
            }
        };
        let text = |v: Option<String>| v.unwrap_or_else(|| UNKNOWN.to_string());
        IpPlace {
            latitude: record
                .location
                .latitude
                .filter(|v| v.is_finite())
                .unwrap_or(0.0),
            longitude: record
                .location
                .longitude
                .filter(|v| v.is_finite())
                .unwrap_or(0.0),
            city: text(record.city.english()),
            country: text(record.country.english()),
            country_code: record
                .country
                .iso_code
                .map(|c| c.trim().to_uppercase())
                .filter(|c| !c.is_empty()),
            state: text(record.subdivisions.first().and_then(Named::english)),
            pincode: text(
                record
                    .postal
                    .code
                    .map(|c| c.trim().to_string())
                    .filter(|c| !c.is_empty()),
            ),
        }
    }
}

/// An IPv4 address carried in IPv6 (`::ffff:a.b.c.d`) as plain IPv4.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// Whether an address can be on the public internet (so worth looking up).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            !(v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.octets()[0] == 100 && (v4.octets()[1] & 0xC0) == 64)
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> GeoIp {
        GeoIp::open(
            &Path::new(
                &std::env::var("CARGO_MANIFEST_DIR")
                    .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
            )
            .join("tests/fixtures/geoip-test.mmdb"),
        )
    }

    #[test]
    fn a_listed_public_address_is_placed() {
        let place = fixture().locate(Some("49.36.10.20".parse().unwrap()));
        assert_eq!(place.city, "Mumbai");
        assert_eq!(place.country, "India");
        assert_eq!(place.country_code.as_deref(), Some("IN"));
        assert_eq!(place.state, "Maharashtra");
        assert_eq!(place.pincode, "400001");
        assert!((place.latitude - 19.07).abs() < 0.01);
        assert!(place.is_known());
    }

    #[test]
    fn private_loopback_and_unlisted_addresses_are_unknown() {
        let geo = fixture();
        for ip in ["10.1.2.3", "127.0.0.1", "192.168.1.1", "::1", "8.8.8.8"] {
            assert_eq!(
                geo.locate(Some(ip.parse().unwrap())),
                IpPlace::unknown(),
                "case {ip}"
            );
        }
        assert_eq!(geo.locate(None), IpPlace::unknown());
    }

    #[test]
    fn missing_parts_default_to_unknown() {
        let place = fixture().locate(Some("81.2.69.160".parse().unwrap()));
        assert_eq!(place.country, "United Kingdom");
        assert_eq!(place.pincode, UNKNOWN);
    }

    #[test]
    fn without_a_database_everything_is_unknown() {
        let geo = GeoIp::open(Path::new("/nonexistent.mmdb"));
        assert!(!geo.is_loaded());
        assert_eq!(
            geo.locate(Some("49.36.10.20".parse().unwrap())),
            IpPlace::unknown()
        );
    }

    #[test]
    fn mapped_ipv4_is_looked_up_as_ipv4() {
        let place = fixture().locate(Some("::ffff:49.36.10.20".parse().unwrap()));
        assert_eq!(place.city, "Mumbai");
    }
}
