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

/// The bytes of a JSON object body: too large is a 413, and anything but an object a 400.
async fn object_bytes(
    bytes: impl std::future::Future<Output = Result<web::Bytes, actix_web::Error>>,
) -> Result<web::Bytes, ApiError> {
    let bytes = bytes.await.map_err(|e| {
        if e.as_response_error().status_code() == actix_web::http::StatusCode::PAYLOAD_TOO_LARGE {
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
    Ok(bytes)
}

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let bytes = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            let bytes = object_bytes(bytes).await?;
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

/// A JSON object body read into its documented type `T` (money and other free-form bodies),
/// whose refusal waits until the handler asks for it: a malformed body is refused by the
/// extractor as with [`ApiJson`], but a key `T` does not name ("Unknown field 'x' (allowed:
/// ...)") is answered where the handler reads the body, after the checks that come first
/// (re-authentication, the record named by the path). `T` is `#[serde(deny_unknown_fields)]`
/// and its fields are [`Sent`] values, so nothing else can fail while it is read.
pub struct Body<T>(Result<T, ApiError>);

impl<T> Body<T> {
    /// The body, or the answer that refuses it.
    pub fn read(self) -> Result<T, ApiError> {
        self.0
    }
}

impl<T: DeserializeOwned + utoipa::ToSchema> Body<T> {
    /// Reads a body the handler took as bytes (when something else must be checked before the
    /// body is even looked at); an empty body is the empty object.
    pub fn from_bytes(bytes: &[u8]) -> Result<T, ApiError> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Self::of(b"{}");
        }
        parse_json::<serde::de::IgnoredAny>(bytes)?;
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(ApiError::invalid(
                "invalid_json",
                "Request body must be a JSON object",
            ));
        }
        Self::of(bytes)
    }

    /// Reads `bytes` (already known to be a well-formed JSON object) into `T`.
    fn of(bytes: &[u8]) -> Result<T, ApiError> {
        let de = &mut serde_json::Deserializer::from_slice(bytes);
        serde_path_to_error::deserialize::<_, T>(de).map_err(|err| {
            let path = err.path().to_string();
            let detail = clean_serde_message(&err.into_inner().to_string());
            if let Some(name) = unknown_field_name(&detail) {
                return ApiError::bad_request(format!(
                    "Unknown field '{name}' (allowed: {})",
                    field_names::<T>().join(", ")
                ));
            }
            ApiError::invalid(
                "validation_error",
                format!("Invalid value for '{path}': {detail}"),
            )
        })
    }
}

/// The key named by serde's "unknown field `x`, expected ..." message.
fn unknown_field_name(detail: &str) -> Option<&str> {
    let rest = detail.strip_prefix("unknown field `")?;
    rest.find("`, ")
        .or_else(|| rest.rfind('`'))
        .map(|end| &rest[..end])
}

/// The fields a documented body type `T` names (its schema's properties, in name order).
pub fn field_names<T: utoipa::ToSchema>() -> Vec<String> {
    let schema = serde_json::to_value(T::schema()).unwrap_or_default();
    schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

impl<T: DeserializeOwned + utoipa::ToSchema + 'static> FromRequest for Body<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let bytes = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            let bytes = object_bytes(bytes).await?;
            // Well-formed first (refused here, as `ApiJson` does); `IgnoredAny` keeps nothing.
            parse_json::<serde::de::IgnoredAny>(&bytes)?;
            Ok(Body(Self::of(&bytes)))
        })
    }
}

/// Why the value of a body field is refused: the answer's message (and its code when it is
/// not `validation_error`).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    code: Option<&'static str>,
    message: String,
}

impl Refusal {
    /// A refusal answered as 400 `validation_error`.
    pub fn new(message: impl Into<String>) -> Self {
        Refusal {
            code: None,
            message: message.into(),
        }
    }

    /// A refusal answered as 400 with its own code (`invalid_id`).
    pub fn with_code(code: &'static str, message: impl Into<String>) -> Self {
        Refusal {
            code: Some(code),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        match r.code {
            None => ApiError::bad_request(r.message),
            Some(code) => ApiError::invalid(code, r.message),
        }
    }
}

/// A value one body field holds, read from its JSON with the message the API answers when the
/// value is wrong. The validating newtypes of the bodies implement it (and `Deserialize`, whose
/// error is that message, through [`field_value!`](crate::field_value)).
pub trait FieldValue: Sized {
    /// The value, or the message that refuses it.
    fn read(value: serde_json::Value) -> Result<Self, Refusal>;

    /// A text that counts as not given (empty, `null`, `undefined`).
    fn is_blank(&self) -> bool {
        false
    }
}

/// Implements `Deserialize` for [`FieldValue`]s: the error is the field's own message.
#[macro_export]
macro_rules! field_value {
    ($($t:ty),+ $(,)?) => {$(
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let value = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                <$t as $crate::extract::FieldValue>::read(value)
                    .map_err(<D::Error as serde::de::Error>::custom)
            }
        }
    )+};
}

/// One field of a [`Body`] as it was sent: missing, `null`, or a value read by its newtype — or
/// the message that refuses that value. The body's `validate` step asks the fields in the order
/// its messages are documented, so the first wrong field answers, as it always has.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Sent<T> {
    #[default]
    Missing,
    Null,
    Given(Result<T, Refusal>),
}

impl<'de, T: FieldValue> serde::Deserialize<'de> for Sent<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
        Ok(match value {
            serde_json::Value::Null => Sent::Null,
            value => Sent::Given(T::read(value)),
        })
    }
}

impl<T: FieldValue> Sent<T> {
    /// Whether the key was in the body (even as `null`).
    pub fn was_sent(&self) -> bool {
        !matches!(self, Sent::Missing)
    }

    /// The value: `None` when missing, `null` or a blank text; the field's message when wrong.
    pub fn value(&self) -> Result<Option<&T>, ApiError> {
        match self {
            Sent::Missing | Sent::Null => Ok(None),
            Sent::Given(Ok(v)) if v.is_blank() => Ok(None),
            Sent::Given(Ok(v)) => Ok(Some(v)),
            Sent::Given(Err(r)) => Err(r.clone().into()),
        }
    }

    /// A change to a stored value: `None` when missing (left as it is), `Some(None)` for `null`
    /// (removed), `Some(Some(value))` to set; the field's message when wrong.
    pub fn change(&self) -> Result<Option<Option<&T>>, ApiError> {
        match self {
            Sent::Missing => Ok(None),
            Sent::Null => Ok(Some(None)),
            Sent::Given(Ok(v)) => Ok(Some(Some(v))),
            Sent::Given(Err(r)) => Err(r.clone().into()),
        }
    }

    /// The value when the key was sent, `null` read like any other value (and refused by the
    /// newtypes that take no `null`); `None` only when missing.
    pub fn given(&self) -> Result<Option<T>, ApiError>
    where
        T: Clone,
    {
        match self {
            Sent::Missing => Ok(None),
            Sent::Null => T::read(serde_json::Value::Null)
                .map(Some)
                .map_err(ApiError::from),
            Sent::Given(Ok(v)) => Ok(Some(v.clone())),
            Sent::Given(Err(r)) => Err(r.clone().into()),
        }
    }

    /// The value, required: `missing` answers when it is not given.
    pub fn required(&self, missing: &str) -> Result<&T, ApiError> {
        self.value()?
            .ok_or_else(|| ApiError::bad_request(missing.to_string()))
    }
}

/// A text field's value, trimmed; another JSON type is refused with `<key> must be a string`.
pub fn read_text(value: serde_json::Value, key: &str) -> Result<String, Refusal> {
    match value {
        serde_json::Value::String(s) => Ok(s.trim().to_string()),
        _ => Err(Refusal::new(format!("{key} must be a string"))),
    }
}

/// Whether a trimmed text counts as not given: empty, `null` or `undefined`.
pub fn blank(text: &str) -> bool {
    text.is_empty() || text == "null" || text == "undefined"
}

/// Declares text newtypes for body fields: trimmed texts, blank ones counting as not given,
/// another JSON type refused with `<key> must be a string`.
#[macro_export]
macro_rules! text_field {
    ($($(#[$doc:meta])* $name:ident = $key:literal;)+) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name(pub String);

        impl $crate::extract::FieldValue for $name {
            fn read(value: serde_json::Value) -> Result<Self, $crate::extract::Refusal> {
                $crate::extract::read_text(value, $key).map($name)
            }
            fn is_blank(&self) -> bool {
                $crate::extract::blank(&self.0)
            }
        }

        $crate::field_value!($name);
    )+};
}

/// A `true`/`false` field; another JSON type is refused with `<key> must be true or false`.
pub fn read_flag(value: serde_json::Value, key: &str) -> Result<bool, Refusal> {
    value
        .as_bool()
        .ok_or_else(|| Refusal::new(format!("{key} must be true or false")))
}

/// Declares flag newtypes for body fields: `true` or `false`, another JSON type refused with
/// `<key> must be true or false`.
#[macro_export]
macro_rules! flag_field {
    ($($(#[$doc:meta])* $name:ident = $key:literal;)+) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name(pub bool);

        impl $crate::extract::FieldValue for $name {
            fn read(value: serde_json::Value) -> Result<Self, $crate::extract::Refusal> {
                $crate::extract::read_flag(value, $key).map($name)
            }
        }

        $crate::field_value!($name);
    )+};
}

/// A payment method id as the provider names them (`pm_` and letters, digits or `_`, at most
/// 100 characters); blank counts as not given.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentMethodId(pub String);

impl FieldValue for PaymentMethodId {
    fn read(value: serde_json::Value) -> Result<Self, Refusal> {
        let method = read_text(value, "paymentMethodId")?;
        let ok = blank(&method)
            || (method.len() <= 100
                && method.starts_with("pm_")
                && method
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_'));
        if !ok {
            return Err(Refusal::new(
                "paymentMethodId must be a payment method id (pm_...)",
            ));
        }
        Ok(PaymentMethodId(method))
    }

    fn is_blank(&self) -> bool {
        blank(&self.0)
    }
}
crate::field_value!(PaymentMethodId);

/// A body that may carry a guest id.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestBody {
    #[serde(default)]
    pub guest_id: Option<String>,
}

/// Parses an optional JSON body: nothing at all is the default value.
pub fn optional_body<T: DeserializeOwned + Default>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    parse_json(bytes)
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
