//! Request extractors with the house error model: JSON bodies parse into typed values and a
//! failure names the field; oversize bodies are a 413.

use actix_web::dev::Payload;
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON body parsed into `T`. Errors name the offending field.
pub struct ApiJson<T>(pub T);

impl<T> ApiJson<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

/// Parses JSON bytes, naming the path of the first offending field.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::invalid(
            "invalid_json",
            "Request body must be a JSON object",
        ));
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let detail = clean_serde_message(&inner.to_string());
        if inner.is_syntax() || inner.is_eof() {
            ApiError::invalid("invalid_json", format!("Malformed JSON: {detail}"))
        } else if path == "." || path.is_empty() {
            ApiError::invalid(
                "validation_error",
                format!("Invalid request body: {detail}"),
            )
        } else {
            ApiError::invalid(
                "validation_error",
                format!("Invalid value for '{path}': {detail}"),
            )
        }
    })
}

/// Drops serde's " at line X column Y" suffix: the field path says where.
fn clean_serde_message(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let bytes = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            let bytes = bytes.await.map_err(|e| {
                if e.as_response_error().status_code()
                    == actix_web::http::StatusCode::PAYLOAD_TOO_LARGE
                {
                    ApiError::PayloadTooLarge("Request body is too large".into())
                } else {
                    ApiError::bad_request("Could not read the request body")
                }
            })?;
            // Every body the API reads is an object; serde would also fill a struct from an array.
            let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
            if first.is_some_and(|b| *b != b'{') {
                return Err(ApiError::invalid(
                    "invalid_json",
                    "Request body must be a JSON object",
                ));
            }
            parse_json(&bytes).map(ApiJson)
        })
    }
}

/// Error handler for actix's own `Json` extractor (kept consistent with `ApiJson`).
pub fn json_error_handler(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    match err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::PayloadTooLarge("Request body is too large".into()).into()
        }
        other => ApiError::invalid("invalid_json", clean_serde_message(&other.to_string())).into(),
    }
}

/// Error handler for query strings.
pub fn query_error_handler(err: QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::invalid(
        "validation_error",
        format!("Invalid query: {}", clean_serde_message(&err.to_string())),
    )
    .into()
}

/// Error handler for path segments.
pub fn path_error_handler(err: PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::invalid(
        "validation_error",
        format!("Invalid path: {}", clean_serde_message(&err.to_string())),
    )
    .into()
}

/// A query value, treating "", "null" and "undefined" as absent.
pub fn present_param(raw: Option<&str>) -> Option<&str> {
    raw.map(str::trim)
        .filter(|s| !s.is_empty() && *s != "null" && *s != "undefined")
}

/// A `page` query value: a whole number from 1 to `max`, 1 when absent.
pub fn page_number(raw: Option<&str>, max: u64) -> Result<u64, ApiError> {
    match present_param(raw) {
        None => Ok(1),
        Some(raw) => raw
            .parse::<u64>()
            .ok()
            .filter(|p| (1..=max).contains(p))
            .ok_or_else(|| ApiError::bad_request("page must be a positive whole number")),
    }
}

/// A `limit` query value: a whole number from 1, at most `max`; `default` when absent.
pub fn page_limit(raw: Option<&str>, default: i64, max: i64) -> Result<i64, ApiError> {
    match present_param(raw) {
        None => Ok(default),
        Some(raw) => raw
            .parse::<i64>()
            .ok()
            .filter(|l| *l >= 1)
            .map(|l| l.min(max))
            .ok_or_else(|| ApiError::bad_request("limit must be a positive whole number")),
    }
}

/// A JSON object body whose fields are checked one by one (money routes): keys outside `allowed`
/// are refused with a message naming them, so a misspelt or server-owned field is never ignored
/// silently.
#[derive(Debug, Default)]
pub struct Fields(pub serde_json::Map<String, serde_json::Value>);

impl Fields {
    /// The body (from `ApiJson<Value>`) as an object of known keys.
    pub fn from_value(value: serde_json::Value, allowed: &[&str]) -> Result<Self, ApiError> {
        let serde_json::Value::Object(map) = value else {
            return Err(ApiError::invalid(
                "invalid_json",
                "Request body must be a JSON object",
            ));
        };
        if let Some(unknown) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(ApiError::bad_request(format!(
                "Unknown field '{unknown}' (allowed: {})",
                allowed.join(", ")
            )));
        }
        Ok(Fields(map))
    }

    /// The body (from `ApiJson<Value>`) as an object of the fields its documented type `T`
    /// names (the properties of `T`'s schema, so the document and the check cannot drift): a key
    /// `T` does not name is refused with a message naming it, and the body must fit `T`. The
    /// fields are then read one by one, each with its own message.
    pub fn of<T>(value: serde_json::Value) -> Result<Self, ApiError>
    where
        T: DeserializeOwned + utoipa::ToSchema,
    {
        let names = Self::names_of::<T>();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let fields = Self::from_value(value, &names)?;
        let object = serde_json::Value::Object(fields.0.clone());
        serde_path_to_error::deserialize::<_, T>(object).map_err(|err| {
            let path = err.path().to_string();
            let detail = clean_serde_message(&err.into_inner().to_string());
            ApiError::invalid(
                "validation_error",
                format!("Invalid value for '{path}': {detail}"),
            )
        })?;
        Ok(fields)
    }

    /// The fields the documented body type `T` names (its schema's properties, in name order).
    pub fn names_of<T: utoipa::ToSchema>() -> Vec<String> {
        let schema = serde_json::to_value(T::schema()).unwrap_or_default();
        schema["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// A field that is present and not null.
    pub fn get(&self, key: &str) -> Option<&serde_json::Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    /// A text field: `None` when absent, null, empty, or the texts `null`/`undefined`; a value of
    /// another type is a 400 naming the field.
    pub fn text(&self, key: &str) -> Result<Option<String>, ApiError> {
        match self.get(key) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) => {
                let t = s.trim();
                if t.is_empty() || t == "null" || t == "undefined" {
                    Ok(None)
                } else {
                    Ok(Some(t.to_string()))
                }
            }
            Some(_) => Err(ApiError::bad_request(format!("{key} must be a string"))),
        }
    }

    /// A boolean field (`true`/`false`); another type is a 400 naming the field.
    pub fn boolean(&self, key: &str) -> Result<Option<bool>, ApiError> {
        match self.get(key) {
            None => Ok(None),
            Some(serde_json::Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(ApiError::bad_request(format!(
                "{key} must be true or false"
            ))),
        }
    }
}

/// An id that must be given: empty, `null` and `undefined` are as bad as a malformed one, and
/// both answer `message`.
pub fn required_id(
    raw: Option<&str>,
    message: &str,
) -> Result<mongodb::bson::oid::ObjectId, ApiError> {
    let raw = raw.map(str::trim).unwrap_or("");
    if raw.is_empty() || raw == "null" || raw == "undefined" {
        return Err(ApiError::invalid("invalid_id", message));
    }
    mongodb::bson::oid::ObjectId::parse_str(raw)
        .map_err(|_| ApiError::invalid("invalid_id", message))
}

/// Parses a hex ObjectId from a path or body, with a message naming what it is.
pub fn object_id(raw: &str, what: &str) -> Result<mongodb::bson::oid::ObjectId, ApiError> {
    mongodb::bson::oid::ObjectId::parse_str(raw.trim())
        .map_err(|_| ApiError::invalid("invalid_id", format!("Invalid {what}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Login {
        email: String,
        password: String,
    }

    #[test]
    fn an_operator_object_where_a_string_belongs_names_the_field() {
        let err = parse_json::<Login>(br#"{"email":{"$ne":null},"password":"x"}"#).unwrap_err();
        assert!(err.to_string().contains("'email'"), "{err}");
    }

    #[test]
    fn a_missing_field_is_named() {
        let err = parse_json::<Login>(br#"{"email":"a@b.co"}"#).unwrap_err();
        assert!(err.to_string().contains("password"), "{err}");
    }

    #[test]
    fn malformed_json_is_reported_as_such() {
        let err = parse_json::<Login>(br#"{"email":"#).unwrap_err();
        assert!(err.to_string().starts_with("Malformed JSON"), "{err}");
    }
}
