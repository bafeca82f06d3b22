//! Fetching what an import names (its images, a feed) from other sites, guarded against being
//! turned on this machine's own network: `http`/`https` only, every address the host resolves
//! to must be public (loopback only when `import.allow_loopback` is on, for tests), checked again
//! on every redirect (at most five, each followed by hand), the connection pinned to the checked
//! addresses, and a time limit, a size limit and a content-type check on the answer.

use std::time::Duration;

use crate::config::ImportSettings;
use crate::services::outbound;

/// Redirects followed before giving up.
const MAX_REDIRECTS: usize = 5;

/// What was fetched.
#[derive(Debug)]
pub struct Fetched {
    pub bytes: Vec<u8>,
}

/// Which answers are wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    Image,
    Feed,
}

impl Wanted {
    fn accepts(self, content_type: &str) -> bool {
        let ct = content_type.to_ascii_lowercase();
        match self {
            Wanted::Image => ct.starts_with("image/") || ct.starts_with("application/octet-stream"),
            Wanted::Feed => {
                ct.is_empty()
                    || ct.contains("xml")
                    || ct.contains("json")
                    || ct.starts_with("text/")
            }
        }
    }

    fn what(self) -> &'static str {
        match self {
            Wanted::Image => "an image",
            Wanted::Feed => "a feed",
        }
    }
}

/// Checks `url` for fetching: answers the parsed address and the addresses to connect to.
pub async fn allowed(
    settings: &ImportSettings,
    url: &str,
) -> Result<(reqwest::Url, Vec<std::net::SocketAddr>), String> {
    let parsed =
        reqwest::Url::parse(url.trim()).map_err(|_| format!("\"{url}\" is not an address"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("{url} is not an http or https address"));
    }
    let host = parsed
        .host_str()
        .ok_or_else(|| format!("{url} has no host"))?
        .to_string();
    let port = parsed.port_or_known_default().unwrap_or(443);
    let addrs = outbound::lookup(&host, port)
        .await
        .ok_or_else(|| format!("the host {host} could not be found"))?;
    if let Some(ip) = outbound::first_refused(&addrs, settings.allow_loopback) {
        return Err(format!(
            "{host} resolves to {ip}, which is private, local or reserved, so it is not fetched"
        ));
    }
    Ok((parsed, addrs))
}

/// Fetches `url` (at most `max_bytes`), or says why not.
pub async fn fetch(
    settings: &ImportSettings,
    url: &str,
    wanted: Wanted,
    max_bytes: u64,
) -> Result<Fetched, String> {
    let mut next = url.to_string();
    for _ in 0..=MAX_REDIRECTS {
        let (parsed, addrs) = allowed(settings, &next).await?;
        let host = parsed.host_str().unwrap_or_default().to_string();
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(settings.fetch_timeout_seconds.max(1)))
            .connect_timeout(Duration::from_secs(10))
            .user_agent("Pressroom-Import/1");
        if !outbound::is_address(&host) {
            builder = builder.resolve_to_addrs(&host, &addrs);
        }
        let client = builder.build().map_err(|e| e.to_string())?;
        let mut res = client
            .get(parsed.clone())
            .header(
                "accept",
                match wanted {
                    Wanted::Image => "image/*",
                    Wanted::Feed => "application/rss+xml, application/atom+xml, application/feed+json, application/xml, text/xml, */*;q=0.5",
                },
            )
            .send()
            .await
            .map_err(|e| {
                if e.is_timeout() {
                    format!("{next} did not answer in time")
                } else {
                    format!("{next} could not be reached")
                }
            })?;
        let status = res.status();
        if status.is_redirection() {
            let location = res
                .headers()
                .get("location")
                .and_then(|l| l.to_str().ok())
                .ok_or_else(|| format!("{next} redirected without saying where"))?;
            next = parsed
                .join(location)
                .map_err(|_| format!("{next} redirected to an address that is not one"))?
                .to_string();
            continue;
        }
        if !status.is_success() {
            return Err(format!("{next} answered {}", status.as_u16()));
        }
        let content_type = res
            .headers()
            .get("content-type")
            .and_then(|c| c.to_str().ok())
            .unwrap_or("")
            .to_string();
        if !wanted.accepts(&content_type) {
            return Err(format!(
                "{next} is not {} (it is {})",
                wanted.what(),
                if content_type.is_empty() {
                    "of no stated type"
                } else {
                    &content_type
                }
            ));
        }
        let too_large = || {
            format!(
                "{next} is larger than the {} MB fetched",
                max_bytes / 1_000_000
            )
        };
        if res.content_length().is_some_and(|n| n > max_bytes) {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = res
            .chunk()
            .await
            .map_err(|_| format!("{next} stopped answering"))?
        {
            if (bytes.len() + chunk.len()) as u64 > max_bytes {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        return Ok(Fetched { bytes });
    }
    Err(format!("{url} redirected more than {MAX_REDIRECTS} times"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(loopback: bool) -> ImportSettings {
        ImportSettings {
            allow_loopback: loopback,
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn private_and_local_addresses_are_refused_before_any_connection() {
        for url in [
            "http://127.0.0.1:9/x.png",
            "http://[::1]:9/x.png",
            "http://10.0.0.1/x.png",
            "http://169.254.169.254/latest/meta-data/",
            "http://192.168.1.1/x.png",
            "http://localhost:9/x.png",
        ] {
            let err = allowed(&settings(false), url).await.unwrap_err();
            assert!(err.contains("private, local or reserved"), "{url}: {err}");
        }
        for url in ["file:///etc/passwd", "ftp://example.com/x", "gopher://x"] {
            let err = allowed(&settings(false), url).await.unwrap_err();
            assert!(err.contains("not an http or https address"), "{url}: {err}");
        }
        // The test setting lets loopback through, and nothing else private.
        assert!(allowed(&settings(true), "http://127.0.0.1:9/x.png")
            .await
            .is_ok());
        assert!(allowed(&settings(true), "http://10.0.0.1/x.png")
            .await
            .is_err());
    }
}
