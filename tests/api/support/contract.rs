//! The contract observer: every answer the API tests see is held to the OpenAPI document: its status must be documented
//! for the route, its media type must be the documented one, and a JSON body must match the
//! documented schema. The server hands each answer to an observer installed here; violations are
//! kept per server and fail the test that owns that server when it ends.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use pressroom::middleware::{set_exchange_observer, Exchange};
use serde_json::{json, Value};

type Validators = Mutex<HashMap<String, Arc<jsonschema::Validator>>>;

static VIOLATIONS: OnceLock<Mutex<HashMap<u16, Vec<String>>>> = OnceLock::new();
static DOCUMENT: OnceLock<Value> = OnceLock::new();
static VALIDATORS: OnceLock<Validators> = OnceLock::new();
static SEEN: OnceLock<Mutex<HashMap<u16, usize>>> = OnceLock::new();

fn violations() -> &'static Mutex<HashMap<u16, Vec<String>>> {
    VIOLATIONS.get_or_init(Default::default)
}

/// Installs the observer for this test process (idempotent).
pub fn install() {
    DOCUMENT.get_or_init(pressroom::routes::openapi::document);
    set_exchange_observer(Box::new(|exchange| {
        *SEEN
            .get_or_init(Default::default)
            .lock()
            .unwrap()
            .entry(exchange.port)
            .or_default() += 1;
        if let Err(why) = check(exchange) {
            violations()
                .lock()
                .unwrap()
                .entry(exchange.port)
                .or_default()
                .push(format!(
                    "{} {} → {}: {why}",
                    exchange.method, exchange.path, exchange.status
                ));
        }
    }));
}

/// How many answers of the server on `port` were checked.
pub fn seen(port: u16) -> usize {
    SEEN.get_or_init(Default::default)
        .lock()
        .unwrap()
        .get(&port)
        .copied()
        .unwrap_or(0)
}

/// The violations seen by the server on `port`, removed from the record.
pub fn take_violations(port: u16) -> Vec<String> {
    violations()
        .lock()
        .unwrap()
        .remove(&port)
        .unwrap_or_default()
}

fn validator(key: &str, schema: &Value) -> Result<Arc<jsonschema::Validator>, String> {
    let cache = VALIDATORS.get_or_init(Default::default);
    if let Some(v) = cache.lock().unwrap().get(key) {
        return Ok(v.clone());
    }
    let doc = DOCUMENT.get().expect("document");
    // `$ref`s point into the document's components; they resolve against this root.
    let root = json!({ "components": doc["components"], "allOf": [schema] });
    let compiled = Arc::new(jsonschema::validator_for(&root).map_err(|e| e.to_string())?);
    cache
        .lock()
        .unwrap()
        .insert(key.to_string(), compiled.clone());
    Ok(compiled)
}

fn media_matches(documented: &str, actual: &str) -> bool {
    let actual = actual.split(';').next().unwrap_or("").trim();
    match documented.strip_suffix("/*") {
        Some(prefix) => actual.starts_with(&format!("{prefix}/")),
        None => documented.eq_ignore_ascii_case(actual),
    }
}

pub fn check(exchange: &Exchange<'_>) -> Result<(), String> {
    let doc = DOCUMENT.get().expect("document");
    let error_schema = json!({ "$ref": "#/components/schemas/Error" });
    let Some(pattern) = exchange.pattern else {
        // No route matched: the house 404/405, which is an error body.
        if exchange.status != 404 && exchange.status != 405 {
            return Err("an unrouted path must answer 404 or 405".into());
        }
        return check_json(exchange, "unrouted", &error_schema);
    };
    let key = if pattern.len() > 1 {
        pattern.trim_end_matches('/')
    } else {
        pattern
    };
    let Some(operation) = doc["paths"][key].get(exchange.method.to_lowercase()) else {
        // Served files (the API viewer) are not operations of the document.
        if key.starts_with(pressroom::routes::openapi::VIEWER_PATH) {
            return Ok(());
        }
        // A HEAD answers as its GET does.
        if exchange.method == "HEAD" {
            return Ok(());
        }
        // A known path with another method: the 405 error body.
        if exchange.status == 405 {
            return check_json(exchange, "405", &error_schema);
        }
        return Err(format!("{} {key} is not in the document", exchange.method));
    };
    let status = exchange.status.to_string();
    let Some(response) = operation["responses"]
        .get(&status)
        .or_else(|| operation["responses"].get("default"))
    else {
        return Err(format!("status {status} is not documented for this route"));
    };
    let Some(content) = response["content"].as_object() else {
        return Ok(());
    };
    let Some(actual) = exchange.content_type else {
        if exchange.body.is_empty() {
            return Ok(());
        }
        return Err("a body without a content type".into());
    };
    let Some((media, spec)) = content.iter().find(|(m, _)| media_matches(m, actual)) else {
        return Err(format!(
            "content type {actual} is not documented (documented: {:?})",
            content.keys().collect::<Vec<_>>()
        ));
    };
    if media.contains("json") {
        let key = format!("{} {key} {status} {media}", exchange.method);
        return check_json(exchange, &key, &spec["schema"]);
    }
    Ok(())
}

fn check_json(exchange: &Exchange<'_>, key: &str, schema: &Value) -> Result<(), String> {
    let body: Value =
        serde_json::from_slice(exchange.body).map_err(|e| format!("the body is not JSON ({e})"))?;
    let validator = validator(key, schema)?;
    let errors: Vec<String> = validator
        .iter_errors(&body)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "body does not match its schema: {}",
            errors.join("; ")
        ))
    }
}
