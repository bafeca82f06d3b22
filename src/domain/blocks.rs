//! Post content blocks in the Editor.js shape `{id, type, data}`. Parsing checks every block,
//! names the offending one in its error, sanitises inline HTML and keeps only the known keys of
//! each type's data.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::error::DomainError;
use super::sanitize::{plain_text, sanitize_inline};

pub const MSG_BLOCKS_REQUIRED: &str = "Blocks are required";
pub const MSG_BLOB_URL: &str =
    "Upload failed: Please convert Blob URLs to base64 or upload images properly.";

pub const MAX_BLOCKS: usize = 500;
pub const MAX_TEXT_LEN: usize = 20_000;
pub const MAX_CODE_LEN: usize = 50_000;
pub const MAX_URL_LEN: usize = 2048;
pub const MAX_BLOCK_ID_LEN: usize = 64;
pub const MAX_LIST_DEPTH: usize = 5;
pub const MAX_LIST_ITEMS: usize = 500;
pub const MAX_TABLE_ROWS: usize = 200;
pub const MAX_TABLE_COLS: usize = 20;
pub const MIN_POLL_OPTIONS: usize = 2;
pub const MAX_POLL_OPTIONS: usize = 10;
pub const MAX_POLL_TEXT_LEN: usize = 300;
/// Reading speed used for the estimate, in words per minute.
pub const WORDS_PER_MINUTE: usize = 200;
/// Seconds a reader is assumed to spend on an image.
pub const SECONDS_PER_IMAGE: usize = 10;

/// The block types a post may contain.
pub const BLOCK_TYPES: [&str; 12] = [
    "paragraph",
    "header",
    "list",
    "quote",
    "code",
    "delimiter",
    "image",
    "embed",
    "table",
    "checklist",
    "poll",
    "tip",
];

/// One content block. `data` holds only the known keys of its type, sanitised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Block {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// The block's Editor.js data; its keys depend on the block's type.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub data: Value,
}

/// Whether a text is or holds a `blob:` address (`blob:https://...`, `src="blob:..."`).
fn mentions_blob_url(s: &str) -> bool {
    let lower = s.trim().to_ascii_lowercase();
    lower.starts_with("blob:")
        || ["\"blob:", "'blob:", "(blob:", "=blob:"]
            .iter()
            .any(|p| lower.contains(p))
}

/// Whether any string anywhere inside a JSON value is a `blob:` address.
pub fn contains_blob_url(value: &Value) -> bool {
    match value {
        Value::String(s) => mentions_blob_url(s),
        Value::Array(items) => items.iter().any(contains_blob_url),
        Value::Object(map) => map.values().any(contains_blob_url),
        _ => false,
    }
}

/// Refuses empty blocks and `blob:` addresses, in that order, with the spec's messages.
pub fn check_upload_rules(blocks: &Value, thumbnail: Option<&Value>) -> Result<(), DomainError> {
    let non_empty = blocks.as_array().is_some_and(|a| !a.is_empty());
    if !non_empty {
        return Err(DomainError::invalid(MSG_BLOCKS_REQUIRED));
    }
    if contains_blob_url(blocks) || thumbnail.is_some_and(contains_blob_url) {
        return Err(DomainError::invalid(MSG_BLOB_URL));
    }
    Ok(())
}

/// A block-level problem, turned into a 400 naming the block.
struct Problem(String);

type Check<T> = Result<T, Problem>;

fn problem(msg: impl Into<String>) -> Problem {
    Problem(msg.into())
}

/// Parses a `blocks` array (already known to be a non-empty array without blob addresses).
pub fn parse_blocks(raw: &Value) -> Result<Vec<Block>, DomainError> {
    let Some(items) = raw.as_array() else {
        return Err(DomainError::invalid("blocks must be an array"));
    };
    if items.is_empty() {
        return Err(DomainError::invalid(MSG_BLOCKS_REQUIRED));
    }
    if items.len() > MAX_BLOCKS {
        return Err(DomainError::invalid(format!(
            "A post may have at most {MAX_BLOCKS} blocks"
        )));
    }
    let mut seen: HashSet<String> = HashSet::new();
    let mut blocks = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let n = i + 1;
        let Some(obj) = item.as_object() else {
            return Err(block_error(
                n,
                None,
                None,
                "must be an object {id, type, data}",
            ));
        };
        let kind = match obj.get("type") {
            Some(Value::String(t)) if !t.trim().is_empty() => t.trim().to_string(),
            _ => return Err(block_error(n, None, None, "has no type")),
        };
        let id = match obj.get("id") {
            Some(Value::String(id)) if !id.trim().is_empty() => id.trim().to_string(),
            _ => return Err(block_error(n, None, Some(&kind), "has no id")),
        };
        if id.chars().count() > MAX_BLOCK_ID_LEN
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(block_error(
                n,
                None,
                Some(&kind),
                &format!(
                    "has an invalid id (letters, digits, '-' and '_', at most {MAX_BLOCK_ID_LEN})"
                ),
            ));
        }
        if !seen.insert(id.clone()) {
            return Err(block_error(
                n,
                Some(&id),
                Some(&kind),
                "has the same id as an earlier block",
            ));
        }
        if !BLOCK_TYPES.contains(&kind.as_str()) {
            return Err(DomainError::coded(
                "invalid_block",
                format!(
                    "Block {n} (id '{id}') has an unknown type '{}'; allowed types: {}",
                    truncate(&kind, 40),
                    BLOCK_TYPES.join(", ")
                ),
            ));
        }
        let data = match obj.get("data") {
            None | Some(Value::Null) if kind == "delimiter" || kind == "tip" => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            _ => {
                return Err(block_error(
                    n,
                    Some(&id),
                    Some(&kind),
                    "data must be an object",
                ))
            }
        };
        let data = parse_data(&kind, &data)
            .map_err(|Problem(msg)| block_error(n, Some(&id), Some(&kind), &msg))?;
        blocks.push(Block { id, kind, data });
    }
    Ok(blocks)
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

fn block_error(n: usize, id: Option<&str>, kind: Option<&str>, msg: &str) -> DomainError {
    let mut label = format!("Block {n}");
    match (kind, id) {
        (Some(k), Some(id)) => label.push_str(&format!(" ({k} '{id}')")),
        (Some(k), None) => label.push_str(&format!(" ({k})")),
        (None, Some(id)) => label.push_str(&format!(" (id '{id}')")),
        (None, None) => {}
    }
    let sep = if msg.starts_with("has ") || msg.starts_with("must ") {
        " "
    } else {
        ": "
    };
    DomainError::coded("invalid_block", format!("{label}{sep}{msg}"))
}

fn parse_data(kind: &str, data: &Map<String, Value>) -> Check<Value> {
    match kind {
        "paragraph" => Ok(json!({ "text": html_field(data, "text", true)? })),
        "header" => {
            let level = match data.get("level") {
                None | Some(Value::Null) => 2,
                Some(v) => v
                    .as_u64()
                    .filter(|l| (1..=6).contains(l))
                    .ok_or_else(|| problem("level must be a whole number from 1 to 6"))?,
            };
            Ok(json!({ "text": html_field(data, "text", true)?, "level": level }))
        }
        "list" => parse_list(data),
        "quote" => {
            let alignment = match data.get("alignment") {
                None | Some(Value::Null) => "left".to_string(),
                Some(Value::String(a)) if a == "left" || a == "center" => a.clone(),
                _ => return Err(problem("alignment must be left or center")),
            };
            Ok(json!({
                "text": html_field(data, "text", true)?,
                "caption": optional_html(data, "caption")?,
                "alignment": alignment,
            }))
        }
        "code" => {
            let code = match data.get("code") {
                Some(Value::String(c)) => c.clone(),
                _ => return Err(problem("code must be a string")),
            };
            if code.chars().count() > MAX_CODE_LEN {
                return Err(problem(format!(
                    "code is longer than {MAX_CODE_LEN} characters"
                )));
            }
            Ok(json!({ "code": code }))
        }
        "delimiter" => Ok(json!({})),
        // A "Support this post" card the writer places; it holds nothing.
        "tip" => Ok(json!({})),
        "image" => parse_image(data),
        "embed" => parse_embed(data),
        "table" => parse_table(data),
        "checklist" => {
            let items = data
                .get("items")
                .and_then(Value::as_array)
                .ok_or_else(|| problem("items must be an array"))?;
            if items.len() > MAX_LIST_ITEMS {
                return Err(problem(format!("has more than {MAX_LIST_ITEMS} items")));
            }
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let obj = item
                    .as_object()
                    .ok_or_else(|| problem(format!("item {} must be {{text, checked}}", i + 1)))?;
                let text = html_field(obj, "text", true)
                    .map_err(|Problem(m)| problem(format!("item {}: {m}", i + 1)))?;
                let checked = optional_bool(obj, "checked")
                    .map_err(|Problem(m)| problem(format!("item {}: {m}", i + 1)))?;
                out.push(json!({ "text": text, "checked": checked }));
            }
            Ok(json!({ "items": out }))
        }
        "poll" => parse_poll(data),
        other => Err(problem(format!("unknown type '{other}'"))),
    }
}

fn check_len(field: &str, text: &str, max: usize) -> Check<()> {
    if text.chars().count() > max {
        return Err(problem(format!("{field} is longer than {max} characters")));
    }
    Ok(())
}

/// A required (or empty-allowed) HTML text field, sanitised.
fn html_field(data: &Map<String, Value>, field: &str, allow_empty: bool) -> Check<String> {
    match data.get(field) {
        Some(Value::String(s)) => {
            check_len(field, s, MAX_TEXT_LEN)?;
            let clean = sanitize_inline(s);
            if !allow_empty && plain_text(&clean).trim().is_empty() {
                return Err(problem(format!("{field} is required")));
            }
            Ok(clean)
        }
        None | Some(Value::Null) if allow_empty => Ok(String::new()),
        None | Some(Value::Null) => Err(problem(format!("{field} is required"))),
        _ => Err(problem(format!("{field} must be a string"))),
    }
}

fn optional_html(data: &Map<String, Value>, field: &str) -> Check<String> {
    html_field(data, field, true)
}

fn optional_bool(data: &Map<String, Value>, field: &str) -> Check<bool> {
    match data.get(field) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        _ => Err(problem(format!("{field} must be true or false"))),
    }
}

fn parse_list(data: &Map<String, Value>) -> Check<Value> {
    let style = match data.get("style") {
        None | Some(Value::Null) => "unordered".to_string(),
        Some(Value::String(s)) if ["ordered", "unordered", "checklist"].contains(&s.as_str()) => {
            s.clone()
        }
        _ => return Err(problem("style must be ordered, unordered or checklist")),
    };
    let items = data
        .get("items")
        .ok_or_else(|| problem("items must be an array"))?;
    let mut count = 0;
    let items = list_items(items, 1, &mut count)?;
    Ok(json!({ "style": style, "items": items }))
}

/// List items: strings (Editor.js list 1.x) or `{content, meta, items}` (nested list 2.x).
fn list_items(items: &Value, depth: usize, count: &mut usize) -> Check<Value> {
    let items = items
        .as_array()
        .ok_or_else(|| problem("items must be an array"))?;
    // A leaf's empty `items` (the nested list's shape) nests nothing.
    if depth > MAX_LIST_DEPTH && !items.is_empty() {
        return Err(problem(format!(
            "lists may be nested at most {MAX_LIST_DEPTH} deep"
        )));
    }
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        *count += 1;
        if *count > MAX_LIST_ITEMS {
            return Err(problem(format!("has more than {MAX_LIST_ITEMS} items")));
        }
        match item {
            Value::String(s) => {
                check_len("a list item", s, MAX_TEXT_LEN)?;
                out.push(Value::String(sanitize_inline(s)));
            }
            Value::Object(obj) => {
                let content = html_field(obj, "content", true)?;
                let nested = match obj.get("items") {
                    None | Some(Value::Null) => json!([]),
                    Some(v) => list_items(v, depth + 1, count)?,
                };
                let mut meta = Map::new();
                if let Some(Value::Object(m)) = obj.get("meta") {
                    if let Some(Value::Bool(checked)) = m.get("checked") {
                        meta.insert("checked".into(), Value::Bool(*checked));
                    }
                }
                out.push(json!({ "content": content, "meta": meta, "items": nested }));
            }
            _ => return Err(problem("list items must be strings or {content, items}")),
        }
    }
    Ok(Value::Array(out))
}

/// A link a browser may load: http(s), no spaces or quotes.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://"))
        && url.len() > "https://".len()
        && url.len() <= MAX_URL_LEN
        && !url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>'))
}

/// Where an image may come from: a data URL (stored on save), a web address, or the media store.
pub fn is_acceptable_image_source(url: &str) -> bool {
    url.starts_with("data:") || is_web_url(url) || super::image::is_media_path(url)
}

fn parse_image(data: &Map<String, Value>) -> Check<Value> {
    let url = match (data.get("file"), data.get("url")) {
        (Some(Value::Object(file)), _) => file.get("url").and_then(Value::as_str),
        (_, Some(Value::String(url))) => Some(url.as_str()),
        _ => None,
    }
    .map(str::trim)
    .filter(|u| !u.is_empty())
    .ok_or_else(|| problem("file.url is required"))?;
    if !is_acceptable_image_source(url) {
        return Err(problem(
            "file.url must be an http(s) address, a /media/ path or a base64 data URL",
        ));
    }
    let mut image = json!({
        "file": { "url": url },
        "caption": optional_html(data, "caption")?,
        "withBorder": optional_bool(data, "withBorder")?,
        "stretched": optional_bool(data, "stretched")?,
        "withBackground": optional_bool(data, "withBackground")?,
    });
    // The picture's text alternative (plain text, at most 500 characters), kept when given.
    let alt = match data.get("alt") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(a)) => super::sanitize::clip(&super::sanitize::plain_text(a), 500),
        _ => return Err(problem("alt must be a string")),
    };
    if !alt.is_empty() {
        image["alt"] = Value::String(alt);
    }
    Ok(image)
}

/// The embed providers a post may frame, with the addresses their players live at (the web app
/// shows the same ones, `web/src/lib/embeds.ts`). A CodePen player is a `/embed/` address.
pub const EMBED_PROVIDERS: [(&str, &[&str]); 3] = [
    (
        "youtube",
        &[
            "https://www.youtube.com/embed/",
            "https://www.youtube-nocookie.com/embed/",
        ],
    ),
    ("vimeo", &["https://player.vimeo.com/video/"]),
    ("codepen", &["https://codepen.io/"]),
];

/// Whether `embed` is a player address of `service`.
pub fn is_allowed_embed(service: &str, embed: &str) -> bool {
    EMBED_PROVIDERS
        .iter()
        .find(|(name, _)| *name == service)
        .is_some_and(|(_, prefixes)| prefixes.iter().any(|p| embed.starts_with(p)))
        && (service != "codepen" || embed.contains("/embed/"))
}

fn parse_embed(data: &Map<String, Value>) -> Check<Value> {
    let service = match data.get("service") {
        Some(Value::String(s)) if !s.trim().is_empty() && s.len() <= 50 => s.trim().to_string(),
        _ => return Err(problem("service is required")),
    };
    let source = match data.get("source") {
        Some(Value::String(s)) if is_web_url(s.trim()) => s.trim().to_string(),
        _ => return Err(problem("source must be an http(s) address")),
    };
    let embed = match data.get("embed") {
        Some(Value::String(s)) if is_web_url(s.trim()) && s.trim().starts_with("https://") => {
            s.trim().to_string()
        }
        _ => return Err(problem("embed must be an https address")),
    };
    if !EMBED_PROVIDERS.iter().any(|(name, _)| *name == service) {
        let names: Vec<&str> = EMBED_PROVIDERS.iter().map(|(name, _)| *name).collect();
        return Err(problem(format!(
            "embeds from '{}' are not allowed; allowed: {}",
            truncate(&service, 50),
            names.join(", ")
        )));
    }
    if !is_allowed_embed(&service, &embed) {
        return Err(problem(format!("embed must be a {service} player address")));
    }
    let dimension = |field: &str| -> Check<Value> {
        match data.get(field) {
            None | Some(Value::Null) => Ok(Value::Null),
            Some(v) => v
                .as_u64()
                .filter(|d| *d <= 10_000)
                .map(Value::from)
                .ok_or_else(|| problem(format!("{field} must be a whole number of pixels"))),
        }
    };
    Ok(json!({
        "service": service,
        "source": source,
        "embed": embed,
        "width": dimension("width")?,
        "height": dimension("height")?,
        "caption": optional_html(data, "caption")?,
    }))
}

fn parse_table(data: &Map<String, Value>) -> Check<Value> {
    let rows = data
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| problem("content must be an array of rows"))?;
    if rows.len() > MAX_TABLE_ROWS {
        return Err(problem(format!("has more than {MAX_TABLE_ROWS} rows")));
    }
    let mut out = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .ok_or_else(|| problem(format!("row {} must be an array of cells", r + 1)))?;
        if cells.len() > MAX_TABLE_COLS {
            return Err(problem(format!(
                "row {} has more than {MAX_TABLE_COLS} cells",
                r + 1
            )));
        }
        let mut clean = Vec::with_capacity(cells.len());
        for cell in cells {
            let text = cell
                .as_str()
                .ok_or_else(|| problem(format!("row {} has a cell that is not text", r + 1)))?;
            check_len("a cell", text, MAX_TEXT_LEN)?;
            clean.push(Value::String(sanitize_inline(text)));
        }
        out.push(Value::Array(clean));
    }
    Ok(json!({
        "withHeadings": optional_bool(data, "withHeadings")?,
        "content": out,
    }))
}

fn parse_poll(data: &Map<String, Value>) -> Check<Value> {
    let question = html_field(data, "question", false)?;
    check_len("question", &question, MAX_POLL_TEXT_LEN)?;
    let options = data
        .get("options")
        .and_then(Value::as_array)
        .ok_or_else(|| problem("options must be an array of {text, votes}"))?;
    if !(MIN_POLL_OPTIONS..=MAX_POLL_OPTIONS).contains(&options.len()) {
        return Err(problem(format!(
            "a poll needs {MIN_POLL_OPTIONS} to {MAX_POLL_OPTIONS} options"
        )));
    }
    let mut texts: Vec<String> = Vec::with_capacity(options.len());
    for (i, option) in options.iter().enumerate() {
        let text = match option {
            Value::Object(obj) => html_field(obj, "text", false),
            Value::String(s) => {
                let mut m = Map::new();
                m.insert("text".into(), Value::String(s.clone()));
                html_field(&m, "text", false)
            }
            _ => Err(problem("must be {text, votes}")),
        }
        .map_err(|Problem(m)| problem(format!("option {}: {m}", i + 1)))?;
        check_len(&format!("option {}", i + 1), &text, MAX_POLL_TEXT_LEN)?;
        if texts.contains(&text) {
            return Err(problem(format!(
                "option {} repeats an earlier option",
                i + 1
            )));
        }
        texts.push(text);
    }
    let multiple = optional_bool(data, "multiple")?;
    let closes_at = match data.get("closesAt") {
        None | Some(Value::Null) => Value::Null,
        Some(Value::String(s)) if s.trim().is_empty() => Value::Null,
        Some(Value::String(s)) => {
            let at = chrono::DateTime::parse_from_rfc3339(s.trim())
                .map_err(|_| problem("closesAt must be an ISO-8601 date and time"))?;
            Value::String(
                at.with_timezone(&chrono::Utc)
                    .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            )
        }
        _ => return Err(problem("closesAt must be an ISO-8601 date and time")),
    };
    // Votes are never taken from the client: a new poll starts at zero, an edited one keeps its
    // counts (see `carry_poll_votes`).
    let options: Vec<Value> = texts
        .into_iter()
        .map(|text| json!({ "text": text, "votes": 0 }))
        .collect();
    Ok(json!({
        "question": question,
        "options": options,
        "multiple": multiple,
        "closesAt": closes_at,
    }))
}

/// Keeps the vote counts of polls that survive an edit: same block id and same option text.
pub fn carry_poll_votes(new_blocks: &mut [Block], old_blocks: &[Block]) {
    for block in new_blocks.iter_mut().filter(|b| b.kind == "poll") {
        let Some(old) = old_blocks
            .iter()
            .find(|o| o.id == block.id && o.kind == "poll")
        else {
            continue;
        };
        let old_options = old.data.get("options").and_then(Value::as_array);
        let Some(options) = block.data.get_mut("options").and_then(Value::as_array_mut) else {
            continue;
        };
        for option in options.iter_mut() {
            let text = option.get("text").cloned();
            let votes = old_options
                .and_then(|olds| olds.iter().find(|o| o.get("text") == text.as_ref()))
                .and_then(|o| o.get("votes"))
                .and_then(Value::as_i64)
                .unwrap_or(0);
            option["votes"] = Value::from(votes);
        }
    }
}

/// The image addresses of the blocks, for replacing data URLs with stored media.
pub fn image_urls_mut(blocks: &mut [Block]) -> Vec<&mut Value> {
    blocks
        .iter_mut()
        .filter(|b| b.kind == "image")
        .filter_map(|b| b.data.get_mut("file").and_then(|f| f.get_mut("url")))
        .collect()
}

/// The readable text of the blocks, for search and reading time.
pub fn plain_text_of(blocks: &[Block]) -> String {
    let mut out = String::new();
    let mut push = |html: &str| {
        out.push_str(&plain_text(html));
        out.push(' ');
    };
    for block in blocks {
        let d = &block.data;
        let field = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("");
        match block.kind.as_str() {
            "paragraph" | "header" => push(field("text")),
            "quote" => {
                push(field("text"));
                push(field("caption"));
            }
            "code" => push(field("code")),
            "image" | "embed" => push(field("caption")),
            "list" => collect_list_text(d.get("items"), &mut push),
            "checklist" => {
                for item in d
                    .get("items")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    push(item.get("text").and_then(Value::as_str).unwrap_or(""));
                }
            }
            "table" => {
                for row in d
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    for cell in row.as_array().into_iter().flatten() {
                        push(cell.as_str().unwrap_or(""));
                    }
                }
            }
            "poll" => {
                push(field("question"));
                for o in d
                    .get("options")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    push(o.get("text").and_then(Value::as_str).unwrap_or(""));
                }
            }
            _ => {}
        }
    }
    out
}

fn collect_list_text(items: Option<&Value>, push: &mut impl FnMut(&str)) {
    for item in items.and_then(Value::as_array).into_iter().flatten() {
        match item {
            Value::String(s) => push(s),
            Value::Object(o) => {
                push(o.get("content").and_then(Value::as_str).unwrap_or(""));
                collect_list_text(o.get("items"), push);
            }
            _ => {}
        }
    }
}

/// Estimated reading time in whole minutes (at least 1).
pub fn reading_time_minutes(blocks: &[Block]) -> i64 {
    let words = plain_text_of(blocks).split_whitespace().count();
    let images = blocks.iter().filter(|b| b.kind == "image").count();
    let seconds = (words * 60).div_ceil(WORDS_PER_MINUTE) + images * SECONDS_PER_IMAGE;
    i64::try_from(seconds.div_ceil(60).max(1)).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: Value) -> Result<Vec<Block>, String> {
        parse_blocks(&v).map_err(|e| e.to_string())
    }

    #[test]
    fn every_known_block_type_parses() {
        let blocks = parse(json!([
            {"id": "p1", "type": "paragraph", "data": {"text": "Hello <b>world</b>"}},
            {"id": "h1", "type": "header", "data": {"text": "Title", "level": 2}},
            {"id": "l1", "type": "list", "data": {"style": "ordered", "items": ["a", {"content": "b", "items": []}]}},
            {"id": "q1", "type": "quote", "data": {"text": "q", "caption": "c"}},
            {"id": "c1", "type": "code", "data": {"code": "<x>"}},
            {"id": "d1", "type": "delimiter", "data": {}},
            {"id": "i1", "type": "image", "data": {"file": {"url": "https://e.com/a.png"}, "caption": "x"}},
            {"id": "e1", "type": "embed", "data": {"service": "youtube", "source": "https://youtu.be/x", "embed": "https://www.youtube.com/embed/x"}},
            {"id": "t1", "type": "table", "data": {"withHeadings": true, "content": [["a", "b"], ["1", "2"]]}},
            {"id": "k1", "type": "checklist", "data": {"items": [{"text": "x", "checked": true}]}},
            {"id": "v1", "type": "poll", "data": {"question": "Best?", "options": [{"text": "A", "votes": 99}, {"text": "B"}], "multiple": false}},
        ]))
        .unwrap();
        assert_eq!(blocks.len(), 11);
        assert_eq!(blocks[4].data["code"], "<x>");
        assert_eq!(
            blocks[10].data["options"][0]["votes"], 0,
            "client votes are ignored"
        );
    }

    #[test]
    fn only_allowed_embed_providers_and_their_players_pass() {
        let embed = |service: &str, address: &str| {
            parse(json!([{"id": "e", "type": "embed", "data": {
                "service": service, "source": "https://example.com/x", "embed": address
            }}]))
        };
        assert!(embed("youtube", "https://www.youtube.com/embed/abc").is_ok());
        assert!(embed("vimeo", "https://player.vimeo.com/video/1").is_ok());
        assert!(embed("codepen", "https://codepen.io/team/embed/preview/x").is_ok());
        for (service, address, message) in [
            (
                "twitter",
                "https://twitframe.com/show?url=x",
                "embeds from 'twitter' are not allowed",
            ),
            (
                "youtube",
                "https://evil.example/embed/x",
                "embed must be a youtube player address",
            ),
            (
                "codepen",
                "https://codepen.io/team/pen/x",
                "embed must be a codepen player address",
            ),
        ] {
            let err = embed(service, address).unwrap_err();
            assert!(err.contains(message), "case {service} {address}: {err}");
        }
    }

    #[test]
    fn bad_blocks_are_refused_naming_the_block() {
        let cases = [
            (
                "unknown type",
                json!([{"id": "a", "type": "paragraph", "data": {"text": "x"}}, {"id": "zz", "type": "raw", "data": {}}]),
                "Block 2 (id 'zz')",
            ),
            (
                "missing id",
                json!([{"type": "paragraph", "data": {"text": "x"}}]),
                "Block 1 (paragraph) has no id",
            ),
            (
                "missing type",
                json!([{"id": "a", "data": {}}]),
                "Block 1 has no type",
            ),
            (
                "header level",
                json!([{"id": "h", "type": "header", "data": {"text": "x", "level": 9}}]),
                "Block 1 (header 'h'): level",
            ),
            (
                "text not string",
                json!([{"id": "p", "type": "paragraph", "data": {"text": 5}}]),
                "Block 1 (paragraph 'p'): text must be a string",
            ),
            (
                "poll one option",
                json!([{"id": "v", "type": "poll", "data": {"question": "q", "options": [{"text": "a"}]}}]),
                "Block 1 (poll 'v'): a poll needs",
            ),
            (
                "poll no question",
                json!([{"id": "v", "type": "poll", "data": {"options": [{"text": "a"}, {"text": "b"}]}}]),
                "question is required",
            ),
            (
                "duplicate id",
                json!([{"id": "a", "type": "delimiter"}, {"id": "a", "type": "delimiter"}]),
                "Block 2 (delimiter 'a') has the same id",
            ),
            (
                "image scheme",
                json!([{"id": "i", "type": "image", "data": {"file": {"url": "javascript:alert(1)"}}}]),
                "Block 1 (image 'i'): file.url",
            ),
            (
                "embed http",
                json!([{"id": "e", "type": "embed", "data": {"service": "x", "source": "https://a.b", "embed": "http://a.b"}}]),
                "embed must be an https address",
            ),
            (
                "data not object",
                json!([{"id": "p", "type": "paragraph", "data": "x"}]),
                "data must be an object",
            ),
        ];
        for (case, blocks, expected) in cases {
            let err = parse(blocks).expect_err(case);
            assert!(err.contains(expected), "case {case}: {err}");
        }
    }

    #[test]
    fn inline_html_is_sanitised_in_every_text_field() {
        let blocks = parse(json!([
            {"id": "p", "type": "paragraph", "data": {"text": "<b>ok</b><script>x</script>"}},
            {"id": "t", "type": "table", "data": {"content": [["<img src=x onerror=y>cell"]]}},
        ]))
        .unwrap();
        assert_eq!(blocks[0].data["text"], "<b>ok</b>");
        assert_eq!(blocks[1].data["content"][0][0], "cell");
    }

    #[test]
    fn blob_addresses_are_found_anywhere() {
        assert!(contains_blob_url(
            &json!([{"data": {"file": {"url": "blob:http://x/1"}}}])
        ));
        assert!(contains_blob_url(
            &json!({"text": "<img src=\"blob:http://x\">"})
        ));
        assert!(!contains_blob_url(&json!({"text": "a blob: of paint"})));
    }

    #[test]
    fn poll_votes_survive_an_edit_of_the_same_option() {
        let mut old = parse(json!([{"id": "v", "type": "poll", "data": {"question": "q", "options": [{"text": "a"}, {"text": "b"}]}}])).unwrap();
        old[0].data["options"][0]["votes"] = json!(4);
        let mut new = parse(json!([{"id": "v", "type": "poll", "data": {"question": "q2", "options": [{"text": "a"}, {"text": "c"}]}}])).unwrap();
        carry_poll_votes(&mut new, &old);
        assert_eq!(new[0].data["options"][0]["votes"], 4);
        assert_eq!(new[0].data["options"][1]["votes"], 0);
    }

    #[test]
    fn reading_time_is_words_over_two_hundred_rounded_up() {
        let text = "word ".repeat(401);
        let blocks =
            parse(json!([{"id": "p", "type": "paragraph", "data": {"text": text}}])).unwrap();
        assert_eq!(reading_time_minutes(&blocks), 3);
        let short =
            parse(json!([{"id": "p", "type": "paragraph", "data": {"text": "hi"}}])).unwrap();
        assert_eq!(reading_time_minutes(&short), 1);
    }

    fn nested_list(levels: usize) -> Value {
        let mut items = json!([]);
        for level in (1..=levels).rev() {
            items = json!([{ "content": format!("level {level}"), "meta": {}, "items": items }]);
        }
        json!([{ "id": "l", "type": "list", "data": { "style": "unordered", "items": items } }])
    }

    #[test]
    fn lists_nest_five_levels_deep_and_no_deeper() {
        // The deepest items carry an empty `items`, as the editor writes them.
        assert!(parse_blocks(&nested_list(MAX_LIST_DEPTH)).is_ok());
        let err = parse_blocks(&nested_list(MAX_LIST_DEPTH + 1)).unwrap_err();
        assert!(
            format!("{err:?}").contains("nested at most 5 deep"),
            "{err:?}"
        );
    }
}

/// How blocks are kept in the database. FerretDB v1 refuses nested arrays ("nested arrays are
/// not supported"), so a table's `content` (rows of cells) is stored as `[{cells: [...]}]` and
/// read back as rows; every other block is stored as it is. Reading also accepts rows stored as
/// plain arrays (a MongoDB deployment may hold them).
pub mod storage {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::{json, Value};

    use super::Block;

    const CELLS: &str = "cells";

    fn to_stored(block: &Block) -> Block {
        if block.kind != "table" {
            return block.clone();
        }
        let mut stored = block.clone();
        if let Some(rows) = stored.data.get_mut("content").and_then(Value::as_array_mut) {
            for row in rows.iter_mut() {
                if row.is_array() {
                    *row = json!({ CELLS: row.take() });
                }
            }
        }
        stored
    }

    fn from_stored(mut block: Block) -> Block {
        if block.kind != "table" {
            return block;
        }
        if let Some(rows) = block.data.get_mut("content").and_then(Value::as_array_mut) {
            for row in rows.iter_mut() {
                if let Some(cells) = row.get_mut(CELLS).map(Value::take) {
                    *row = cells;
                }
            }
        }
        block
    }

    /// The blocks as stored (for `$set` updates that bypass the post's own serialisation).
    pub fn stored(blocks: &[Block]) -> Vec<Block> {
        blocks.iter().map(to_stored).collect()
    }

    /// `#[serde(with = "...")]` for a post's `blocks`.
    pub fn serialize<S: Serializer>(blocks: &[Block], serializer: S) -> Result<S::Ok, S::Error> {
        stored(blocks).serialize(serializer)
    }

    /// `#[serde(with = "...")]` for a post's `blocks`.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Block>, D::Error> {
        Ok(Vec::<Block>::deserialize(deserializer)?
            .into_iter()
            .map(from_stored)
            .collect())
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_table_is_stored_without_nested_arrays_and_read_back_as_rows() {
            let table = Block {
                id: "t1".into(),
                kind: "table".into(),
                data: json!({ "withHeadings": true, "content": [["a", "b"], ["c", "d"]] }),
            };
            let stored = stored(std::slice::from_ref(&table));
            assert_eq!(
                stored[0].data["content"],
                json!([{ "cells": ["a", "b"] }, { "cells": ["c", "d"] }])
            );
            let back = from_stored(stored[0].clone());
            assert_eq!(back, table);
            // Rows stored as plain arrays read as they are.
            assert_eq!(from_stored(table.clone()), table);
        }
    }
}
