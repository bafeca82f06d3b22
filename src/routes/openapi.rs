//! `GET /api/openapi.json`: the OpenAPI 3.1 document of every route, built from the route table
//! ([`super::table::ROUTES`]) and the request and answer types its entries name.

use std::collections::BTreeMap;

use serde_json::{json, Value};

pub use super::table::{methods_for, path_matches, Access, Body, Route, SchemaSet, ROUTES};

fn tag(path: &str) -> &str {
    let rest = path
        .strip_prefix("/api/")
        .unwrap_or(path.trim_start_matches('/'));
    rest.split('/').next().unwrap_or("")
}

fn parameters(path: &str) -> Vec<Value> {
    path.split('/')
        .filter_map(|seg| seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } }))
        .collect()
}

/// The media type and schema of a route's successful answer.
fn success_content(path: &str) -> Value {
    match path {
        "/media/{name}" => {
            json!({ "image/*": { "schema": { "type": "string", "format": "binary" } } })
        }
        "/api/admin/download-csv" => {
            json!({ (crate::routes::admin::export::CONTENT_TYPE): { "schema": { "type": "string", "format": "binary" } } })
        }
        "/api/user/export/{id}/download" => {
            json!({ "application/zip": { "schema": { "type": "string", "format": "binary" } } })
        }
        "/api/geojson/india-border" | "/api/geojson/world" => {
            json!({ "application/geo+json": { "schema": { "type": "object" } } })
        }
        "/api/dailyMail/unsubscribe"
        | "/api/newsletter/confirm"
        | "/api/newsletter/unsubscribe" => {
            json!({ "text/html": { "schema": { "type": "string" } } })
        }
        // Prometheus text format; loopback, `metrics.trusted` and `metrics.token` only (else 404).
        "/metrics" => json!({ "text/plain": { "schema": { "type": "string" } } }),
        _ => json!({ "application/json": { "schema": { "type": "object" } } }),
    }
}

/// The error statuses a route can answer, each with the error body.
fn error_statuses(route: &Route) -> Vec<&'static str> {
    let mut codes = vec![
        "400", "401", "403", "404", "405", "409", "413", "429", "503",
    ];
    let tag = tag(route.path);
    if matches!(
        tag,
        "subscription" | "payment" | "earning" | "admin" | "tips"
    ) {
        codes.extend(["402", "502"]);
    }
    codes
}

/// Declared links for the stateful phase: what a creation answers feeds the routes of its object.
fn links(route: &Route) -> Option<Value> {
    let (param, pointer, targets): (&str, &str, &[(&str, &str)]) = match (route.method, route.path)
    {
        ("POST", "/api/category") => (
            "id",
            "/category/_id",
            &[
                ("PATCH", "/api/category/{id}"),
                ("DELETE", "/api/category/{id}"),
            ],
        ),
        ("POST", "/api/comment/add-comment/{postId}") => (
            "commentId",
            "/comment/_id",
            &[
                ("PUT", "/api/comment/edit/{commentId}"),
                ("POST", "/api/comment/reaction/{commentId}"),
                ("DELETE", "/api/comment/delete/{commentId}"),
            ],
        ),
        ("POST", "/api/post/post-create") => (
            "postId",
            "/post/_id",
            &[
                ("POST", "/api/post/like/{postId}"),
                ("POST", "/api/post/bookmark/{postId}"),
                ("POST", "/api/comment/add-comment/{postId}"),
                ("DELETE", "/api/post/delete/{postId}"),
            ],
        ),
        ("POST", "/api/payment/bank-details") => (
            "id",
            "/bankDetails/_id",
            &[
                ("PATCH", "/api/payment/bank-details/{id}"),
                ("DELETE", "/api/payment/bank-details/{id}"),
            ],
        ),
        ("POST", "/api/subscription/plans") => (
            "id",
            "/plan/_id",
            &[
                ("PATCH", "/api/subscription/plans/{id}"),
                ("POST", "/api/subscription/plans/{id}/activate"),
                ("GET", "/api/subscription/plans/{id}/analytics"),
                ("DELETE", "/api/subscription/plans/{id}"),
            ],
        ),
        _ => return None,
    };
    let mut out = serde_json::Map::new();
    for (method, path) in targets {
        out.insert(
            format!(
                "{}{}",
                method.to_lowercase(),
                path.replace(['/', '{', '}'], "_")
            ),
            json!({
                "operationId": operation_id(method, path),
                "parameters": { param: format!("$response.body#{pointer}") }
            }),
        );
    }
    Some(Value::Object(out))
}

fn operation_id(method: &str, path: &str) -> String {
    format!("{method} {path}")
}

pub use super::api_document::{ApiDocument, ApiInfo};

/// The document as JSON.
pub fn document() -> Value {
    serde_json::to_value(api_document()).unwrap_or(Value::Null)
}

/// Builds the document from [`ROUTES`] and the request types they name.
pub fn api_document() -> ApiDocument {
    let mut paths: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
    let mut schemas = serde_json::Map::new();
    schemas.insert("Error".into(), error_schema());
    for route in ROUTES.iter().filter(|r| !r.site) {
        let key = if route.path.len() > 1 {
            route.path.trim_end_matches('/')
        } else {
            route.path
        };
        let key = if key.is_empty() { "/" } else { key };
        let mut parameters = parameters(route.path);
        if let Some(query) = route.query {
            parameters.extend(query());
        }
        if route.path == "/api/tips" && route.method == "POST" {
            parameters.push(json!({
                "name": "Idempotency-Key", "in": "header", "required": false,
                "description": "Makes a repeated request (a retry, a double click) answer the tip the first one made: 1 to 255 visible characters, unique per tip",
                "schema": { "type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$" }
            }));
        }
        let mut responses = serde_json::Map::new();
        let content = match route.success {
            Some(of) => {
                let (schema, refs) = of();
                schemas.extend(refs);
                json!({ "application/json": { "schema": schema } })
            }
            None => success_content(route.path),
        };
        let mut ok = json!({ "description": "Success", "content": content.clone() });
        if let Some(links) = links(route) {
            ok["links"] = links;
        }
        if route.created {
            responses.insert("201".into(), ok.clone());
        }
        if route.accepted {
            responses.insert("202".into(), ok.clone());
        }
        if route.path == "/api/subscription/subscribe" || route.path == "/api/tips" {
            // A payment the provider must still confirm (the client finishes it with its secret).
            responses.insert("202".into(), ok.clone());
        }
        responses.insert("200".into(), ok);
        for code in error_statuses(route) {
            responses.insert(
                code.into(),
                json!({ "description": "Error", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }),
            );
        }
        if route.method == "GET" && crate::guest_cache::validates(route.path) {
            // `If-None-Match` naming the answer's `ETag`.
            responses.insert(
                "304".into(),
                json!({ "description": "Not modified: the answer is the one the request's If-None-Match names" }),
            );
        }
        if route.path == "/health" {
            // The database away: the same report, with `"db": "down"`.
            responses.insert(
                "503".into(),
                json!({ "description": "The database is unreachable", "content": content }),
            );
        }
        if matches!(
            route.path,
            "/api/dailyMail/unsubscribe"
                | "/api/newsletter/confirm"
                | "/api/newsletter/unsubscribe"
        ) {
            // A person follows this link from an email: a bad link gets a page, not JSON.
            responses.insert(
                "400".into(),
                json!({ "description": "The link is not valid", "content": { "text/html": { "schema": { "type": "string" } } } }),
            );
        }
        let mut operation = json!({
            "operationId": operation_id(route.method, route.path),
            "tags": [tag(route.path)],
            "parameters": parameters,
            "responses": responses,
        });
        match route.access {
            Access::Public => {}
            Access::Optional => {
                operation["security"] = json!([{}, { "bearer": [] }, { "cookie": [] }]);
            }
            Access::User | Access::Admin => {
                operation["security"] = json!([{ "bearer": [] }, { "cookie": [] }]);
            }
        }
        if let Some(scope) = route.scope {
            // A personal API key holding `scope` may call it too (OpenAPI 3.1 lists the roles
            // a non-OAuth scheme needs).
            if let Some(list) = operation["security"].as_array_mut() {
                list.push(json!({ "apiKey": [scope] }));
            }
            operation["x-required-scopes"] = json!([scope]);
        }
        if let Some(of) = route.body.schema() {
            let (schema, refs) = of();
            for (name, s) in refs {
                schemas.insert(name, s);
            }
            let mut content = json!({ "application/json": { "schema": schema } });
            if matches!(route.body, Body::Upload(_)) {
                content["multipart/form-data"] = json!({ "schema": {
                    "type": "object",
                    "required": ["source", "file"],
                    "properties": {
                        "source": { "type": "string", "enum": ["wordpress", "medium", "substack", "ghost", "pressroom"] },
                        "file": { "type": "string", "format": "binary" },
                    },
                } });
            }
            operation["requestBody"] = json!({
                "required": !matches!(route.body, Body::Optional(_)),
                "content": content
            });
        }
        paths
            .entry(key.to_string())
            .or_default()
            .entry(route.method.to_lowercase())
            .or_insert(operation);
    }
    ApiDocument {
        openapi: "3.1.0",
        info: ApiInfo {
            title: "Pressroom API",
            version: env!("CARGO_PKG_VERSION"),
        },
        paths,
        components: json!({
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "cookie": { "type": "apiKey", "in": "cookie", "name": "jwt" },
                "apiKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "bearerFormat": "pr_live_…",
                    "description": "A personal API key (Settings → Developers): `Authorization: Bearer pr_live_…`. It works on the operations whose `x-required-scopes` it holds; elsewhere it is refused with 403 `insufficient_scope` or `key_not_allowed`. The site's public content key (scope `content:read`, made by an administrator, safe in a headless front end) reads the GET operations of `read:posts` as a guest does (public posts only) and nothing else."
                }
            },
            "schemas": schemas
        }),
    }
}

fn error_schema() -> Value {
    serde_json::to_value(<crate::error::ErrorBody as utoipa::PartialSchema>::schema())
        .unwrap_or(Value::Null)
}

/// Where the API viewer is served: Swagger UI from the built web app's `api-docs` folder (its
/// files come from the `swagger-ui-dist` package at build time; nothing is fetched from elsewhere).
pub const VIEWER_PATH: &str = "/api/docs";

/// Mounts the viewer at [`VIEWER_PATH`] when the web app is built; before that the path answers
/// a JSON 404 that says how to build it.
pub fn configure_viewer(cfg: &mut actix_web::web::ServiceConfig, static_dir: &std::path::Path) {
    let dir = static_dir.join("api-docs");
    if dir.join("index.html").is_file() {
        cfg.service(
            actix_files::Files::new(VIEWER_PATH, dir)
                .index_file("index.html")
                .redirect_to_slash_directory(),
        );
    } else {
        cfg.service(
            actix_web::web::scope(VIEWER_PATH).default_service(actix_web::web::to(|| async {
                crate::error::json_error(
                    actix_web::http::StatusCode::NOT_FOUND,
                    "not_found",
                    "The API viewer is part of the web app, which has not been built (scripts/run builds it)",
                )
            })),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_names_path_parameters() {
        let doc = document();
        let op = &doc["paths"]["/api/post/like/{postId}"]["post"];
        assert_eq!(op["parameters"][0]["name"], "postId");
        let signup = &doc["paths"]["/api/auth/signup"]["post"];
        let body = &signup["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(body["properties"]["fullName"]["type"], "string");
        assert!(body["required"]
            .as_array()
            .unwrap()
            .contains(&json!("email")));
        assert_eq!(op["tags"][0], "post");
    }

    /// Routes whose success is not a JSON body: they keep their media type.
    const NOT_JSON: &[&str] = &[
        // An HTML page: a person follows the link from an email.
        "/api/dailyMail/unsubscribe",
        "/api/newsletter/confirm",
        "/api/newsletter/unsubscribe",
        // Map files, `application/geo+json`.
        "/api/geojson/india-border",
        "/api/geojson/world",
        // Uploaded images.
        "/media/{name}",
        // A CSV or workbook download.
        "/api/admin/download-csv",
        // The ZIP of a data export.
        "/api/user/export/{id}/download",
        // Prometheus text format.
        "/metrics",
    ];

    /// Routes that only refuse: a request without the id the real route needs.
    const ONLY_REFUSE: &[(&str, &str)] = &[
        ("PATCH", "/api/notification/mark-as-read"),
        ("PATCH", "/api/notification/mark-as-read/"),
        ("GET", "/api/notification/user"),
        ("GET", "/api/notification/user/"),
        ("DELETE", "/api/notification"),
        ("DELETE", "/api/notification/"),
    ];

    #[test]
    fn every_json_answer_is_typed() {
        let untyped: Vec<String> = ROUTES
            .iter()
            .filter(|r| r.success.is_none() && !r.site)
            .filter(|r| !NOT_JSON.contains(&r.path))
            .filter(|r| !ONLY_REFUSE.contains(&(r.method, r.path)))
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        assert!(
            untyped.is_empty(),
            "routes answering JSON without `.returns(...)`: {untyped:?}"
        );
        for path in NOT_JSON {
            let route = ROUTES.iter().find(|r| r.path == *path).unwrap();
            assert!(
                route.success.is_none(),
                "{path} is typed: take it off NOT_JSON"
            );
            assert!(
                success_content(path).get("application/json").is_none(),
                "{path} answers JSON"
            );
        }
    }

    #[test]
    fn one_schema_name_is_one_type() {
        // Named schemas are keyed by the type's name alone: two types of one name in different
        // modules would overwrite each other in the document.
        let mut seen: BTreeMap<String, Value> = BTreeMap::new();
        let mut sets: Vec<SchemaSet> = Vec::new();
        for route in ROUTES {
            sets.extend(
                route
                    .success
                    .into_iter()
                    .chain(route.body.schema())
                    .map(|of| of()),
            );
        }
        for (_, refs) in sets {
            for (name, schema) in refs {
                if let Some(other) = seen.get(&name) {
                    assert_eq!(other, &schema, "two types are named {name}");
                }
                seen.insert(name, schema);
            }
        }
    }

    #[test]
    fn bodies_read_field_by_field_document_their_fields() {
        let doc = document();
        let body = |path: &str, method: &str| {
            doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
                .clone()
        };
        let subscribe = body("/api/subscription/subscribe", "post");
        assert_eq!(subscribe["properties"]["planId"]["type"], "string");
        assert_eq!(subscribe["required"], json!(["planId"]));
        let bank = body("/api/payment/bank-details", "post");
        assert_eq!(
            bank["properties"]["contactData"]["$ref"],
            "#/components/schemas/ContactDataBody"
        );
        let change = body("/api/payment/bank-details/{id}", "patch");
        assert!(change["properties"]["userId"].is_null());
        assert!(change.get("required").is_none());
        let toggle = body("/api/admin/subscriptions/eligibility/toggle", "post");
        assert_eq!(toggle["properties"]["enable"]["type"], "boolean");
        for route in ROUTES {
            if let Some(of) = route.body.schema() {
                let (schema, _) = of();
                assert!(
                    schema["properties"].is_object(),
                    "{} {} documents no fields",
                    route.method,
                    route.path
                );
            }
        }
    }

    #[test]
    fn typed_answers_resolve_their_references() {
        let doc = document();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let text = doc.to_string();
        for name in text
            .split("\"$ref\":\"#/components/schemas/")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap())
        {
            assert!(
                schemas.contains_key(name),
                "{name} is referred to but not defined"
            );
        }
        let health = &doc["paths"]["/health"]["get"]["responses"];
        assert_eq!(health["503"]["content"], health["200"]["content"]);
    }
}
