//! Requests to the app: one `TestApp` method per HTTP verb and shape of body, and the readers of
//! answers (`json_of`, `assert_error`).

use reqwest::{Response, StatusCode};
use serde_json::Value;

use super::app::TestApp;

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn post_json(&self, path: &str, body: &Value, token: Option<&str>) -> Response {
        let mut req = self.client.post(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn post_raw(&self, path: &str, body: &str, token: Option<&str>) -> Response {
        let mut req = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    /// POST without a body.
    pub async fn post_empty(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.post(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    /// `post_json` with owned arguments, for many requests at once.
    pub async fn post_owned(&self, path: String, body: Value, token: Option<String>) -> Response {
        self.post_json(&path, &body, token.as_deref()).await
    }

    pub async fn patch_json(&self, path: &str, body: &Value, token: Option<&str>) -> Response {
        let mut req = self.client.patch(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn patch_empty(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.patch(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn put_json(&self, path: &str, body: &Value, token: Option<&str>) -> Response {
        let mut req = self.client.put(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn delete(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.delete(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    /// A request that comes from `ip` through the trusted proxy.
    pub async fn request_from(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        ip: &str,
        body: Option<&Value>,
    ) -> Response {
        let mut req = self
            .client
            .request(method, self.url(path))
            .header("x-forwarded-for", ip);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        req.send().await.expect("request")
    }
}

pub async fn json_of(res: Response) -> Value {
    res.json().await.expect("a JSON body")
}

/// Asserts the status and the `{message, code}` error shape; returns the message.
pub async fn assert_error(res: Response, status: StatusCode) -> String {
    assert_eq!(res.status(), status);
    let body = json_of(res).await;
    assert!(body["code"].is_string(), "error without a code: {body}");
    body["message"].as_str().expect("error message").to_string()
}

/// A route pattern with each `{param}` (or `{param:pattern}`, whose pattern may hold braces of
/// its own) replaced by `value(param name)`.
pub fn fill_params(path: &str, value: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        // The parameter ends at its matching brace (a pattern may hold `{1,9}`).
        let mut depth = 0;
        let mut end = rest.len();
        for (i, c) in rest[start..].char_indices() {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            if depth == 0 {
                end = start + i;
                break;
            }
        }
        let param = rest.get(start + 1..end).unwrap_or("");
        out.push_str(&value(param.split(':').next().unwrap_or("")));
        rest = rest.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// The route's path with each `{param}` replaced by a fresh object id (nobody's object); a
/// parameter of the site's feed and sitemap patterns (`{file:(?:feed|rss)\\.xml}`) takes a value
/// its pattern accepts.
pub fn concrete(path: &str) -> String {
    let id = mongodb::bson::oid::ObjectId::new().to_hex();
    fill_params(path, |name| {
        match name {
            "file" if path.contains("{file:") => "feed.xml",
            "kind" => "posts",
            "n" => "1",
            _ => id.as_str(),
        }
        .to_string()
    })
}
