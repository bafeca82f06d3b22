//! Revisions of a post: the state a revision keeps ([`Snapshot`]) and the differences between
//! two states — block by block (matched by their Editor.js ids), and word by word inside a
//! changed block's text. Pure: no I/O.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use super::blocks::{plain_text_of, Block};

/// Why a revision was saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The post was created as a draft or scheduled.
    Created,
    /// The post became published (also when it was created published).
    Published,
    /// A published post became a draft or scheduled again.
    Unpublished,
    /// The author saved.
    Saved,
    /// The editor saved while the author was typing (at most one per period).
    Autosave,
    /// An administrator changed someone else's post.
    AdminEdit,
    /// An administrator blocked the post: the state blocked.
    Blocked,
    /// A revision was restored.
    Restored,
    /// A report pinned the post's state, which no revision held yet.
    Reported,
    /// An appeal pinned the post's state, which no revision held yet.
    Appealed,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Created => "created",
            Reason::Published => "published",
            Reason::Unpublished => "unpublished",
            Reason::Saved => "saved",
            Reason::Autosave => "autosave",
            Reason::AdminEdit => "admin_edit",
            Reason::Blocked => "blocked",
            Reason::Restored => "restored",
            Reason::Reported => "reported",
            Reason::Appealed => "appealed",
        }
    }
}

/// What a revision keeps of a post: what its author wrote and who may read it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub title: String,
    pub blocks: Vec<Block>,
    #[serde(default)]
    pub thumbnail: Option<String>,
    /// The category's id (hex).
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    pub visibility: String,
    pub audience: String,
}

impl Snapshot {
    /// A short fingerprint of the state: two snapshots with the same one are the same state.
    pub fn fingerprint(&self) -> String {
        fingerprint_of(&serde_json::to_vec(self).unwrap_or_default())
    }
}

/// [`Snapshot::fingerprint`] of a snapshot already written as JSON.
pub fn fingerprint_of(json: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(json)[..16])
}

/// One run of words: kept, added or removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct WordOp {
    /// `equal`, `insert` or `delete`.
    pub op: &'static str,
    pub text: String,
}

/// The word-level changes from `before` to `after`; runs of the same kind are merged, and the
/// whitespace between words belongs to the run it sits in.
pub fn word_ops(before: &str, after: &str) -> Vec<WordOp> {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(200))
        .diff_words(before, after);
    let mut ops: Vec<WordOp> = Vec::new();
    for change in diff.iter_all_changes() {
        let op = match change.tag() {
            ChangeTag::Equal => "equal",
            ChangeTag::Insert => "insert",
            ChangeTag::Delete => "delete",
        };
        let text = change.value();
        match ops.last_mut() {
            Some(last) if last.op == op => last.text.push_str(text),
            _ => ops.push(WordOp {
                op,
                text: text.to_string(),
            }),
        }
    }
    ops
}

fn words_in(text: &str) -> i64 {
    i64::try_from(text.split_whitespace().count()).unwrap_or(i64::MAX)
}

/// How a block differs between the two states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BlockChange {
    Added,
    Removed,
    Changed,
    Unchanged,
}

/// One block of the comparison.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct BlockDiff {
    pub change: BlockChange,
    /// The block's Editor.js id.
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub before: Option<Block>,
    pub after: Option<Block>,
    /// Word-level changes of the block's text, for a changed block.
    pub words: Option<Vec<WordOp>>,
}

/// Counts of a change, for lists of revisions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeSummary {
    pub blocks_added: i64,
    pub blocks_removed: i64,
    pub blocks_changed: i64,
    pub words_added: i64,
    pub words_removed: i64,
}

/// A field outside the blocks that differs.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FieldDiff {
    /// `tags`, `category`, `visibility`, `audience` or `thumbnail`.
    pub field: &'static str,
    /// A list of tags, a text or null.
    #[schema(value_type = Value)]
    pub before: Value,
    /// A list of tags, a text or null.
    #[schema(value_type = Value)]
    pub after: Value,
}

/// The title's change.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct TitleDiff {
    pub changed: bool,
    pub words: Vec<WordOp>,
}

/// Everything that differs from one state to another.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Comparison {
    pub title: TitleDiff,
    pub blocks: Vec<BlockDiff>,
    pub fields: Vec<FieldDiff>,
    pub summary: ChangeSummary,
}

fn block_text(block: &Block) -> String {
    plain_text_of(std::slice::from_ref(block))
        .trim()
        .to_string()
}

fn count_ops(words: &[WordOp], summary: &mut ChangeSummary) {
    for w in words {
        match w.op {
            "insert" => summary.words_added += words_in(&w.text),
            "delete" => summary.words_removed += words_in(&w.text),
            _ => {}
        }
    }
}

/// The blocks of `after` in order, each marked added, changed or unchanged against `before`
/// (matched by id, the first of a repeated id), with the removed blocks of `before` placed
/// where they stood.
pub fn compare_blocks(before: &[Block], after: &[Block]) -> (Vec<BlockDiff>, ChangeSummary) {
    use std::collections::{HashMap, HashSet};
    let mut summary = ChangeSummary::default();
    let mut before_at: HashMap<&str, usize> = HashMap::new();
    for (i, b) in before.iter().enumerate() {
        before_at.entry(b.id.as_str()).or_insert(i);
    }
    let after_ids: HashSet<&str> = after.iter().map(|b| b.id.as_str()).collect();
    let mut matched: HashSet<usize> = HashSet::new();
    let is_removed = |i: usize| !after_ids.contains(before[i].id.as_str());
    // `next`: the first block of `before` not yet placed; removed blocks are placed right
    // after the block that preceded them.
    let mut next = 0usize;
    let mut out = Vec::with_capacity(after.len());
    let removed = |i: usize, summary: &mut ChangeSummary| {
        let b = &before[i];
        summary.blocks_removed += 1;
        summary.words_removed += words_in(&block_text(b));
        BlockDiff {
            change: BlockChange::Removed,
            id: b.id.clone(),
            kind: b.kind.clone(),
            before: Some(b.clone()),
            after: None,
            words: None,
        }
    };
    while next < before.len() && is_removed(next) {
        out.push(removed(next, &mut summary));
        next += 1;
    }
    for b in after {
        let found = before_at
            .get(b.id.as_str())
            .copied()
            .filter(|i| !matched.contains(i));
        let Some(i) = found else {
            summary.blocks_added += 1;
            summary.words_added += words_in(&block_text(b));
            out.push(BlockDiff {
                change: BlockChange::Added,
                id: b.id.clone(),
                kind: b.kind.clone(),
                before: None,
                after: Some(b.clone()),
                words: None,
            });
            continue;
        };
        matched.insert(i);
        while next < i {
            if is_removed(next) {
                out.push(removed(next, &mut summary));
            }
            next += 1;
        }
        let old = &before[i];
        if old.kind == b.kind && old.data == b.data {
            out.push(BlockDiff {
                change: BlockChange::Unchanged,
                id: b.id.clone(),
                kind: b.kind.clone(),
                before: None,
                after: Some(b.clone()),
                words: None,
            });
        } else {
            summary.blocks_changed += 1;
            let words = word_ops(&block_text(old), &block_text(b));
            count_ops(&words, &mut summary);
            out.push(BlockDiff {
                change: BlockChange::Changed,
                id: b.id.clone(),
                kind: b.kind.clone(),
                before: Some(old.clone()),
                after: Some(b.clone()),
                words: Some(words),
            });
        }
        if next <= i {
            next = i + 1;
            while next < before.len() && is_removed(next) {
                out.push(removed(next, &mut summary));
                next += 1;
            }
        }
    }
    for i in next..before.len() {
        if is_removed(i) {
            out.push(removed(i, &mut summary));
        }
    }
    (out, summary)
}

/// Everything that differs from `before` to `after`.
pub fn compare(before: &Snapshot, after: &Snapshot) -> Comparison {
    let (blocks, mut summary) = compare_blocks(&before.blocks, &after.blocks);
    let title_words = word_ops(&before.title, &after.title);
    let title_changed = before.title != after.title;
    if title_changed {
        count_ops(&title_words, &mut summary);
    }
    let mut fields = Vec::new();
    let mut field = |name: &'static str, a: Value, b: Value| {
        if a != b {
            fields.push(FieldDiff {
                field: name,
                before: a,
                after: b,
            });
        }
    };
    field(
        "tags",
        before.tags.clone().into(),
        after.tags.clone().into(),
    );
    field(
        "category",
        before.category.clone().into(),
        after.category.clone().into(),
    );
    field(
        "visibility",
        before.visibility.clone().into(),
        after.visibility.clone().into(),
    );
    field(
        "audience",
        before.audience.clone().into(),
        after.audience.clone().into(),
    );
    field(
        "thumbnail",
        before.thumbnail.clone().into(),
        after.thumbnail.clone().into(),
    );
    Comparison {
        title: TitleDiff {
            changed: title_changed,
            words: title_words,
        },
        blocks,
        fields,
        summary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn para(id: &str, text: &str) -> Block {
        Block {
            id: id.into(),
            kind: "paragraph".into(),
            data: json!({ "text": text }),
        }
    }

    fn joined(ops: &[WordOp], keep: &str) -> String {
        ops.iter()
            .filter(|o| o.op == "equal" || o.op == keep)
            .map(|o| o.text.as_str())
            .collect()
    }

    #[test]
    fn word_operations_rebuild_both_texts_and_name_the_changed_words() {
        let before = "The quick brown fox jumps over the lazy dog";
        let after = "The quick red fox leaps over the lazy dog";
        let ops = word_ops(before, after);
        assert_eq!(joined(&ops, "delete"), before);
        assert_eq!(joined(&ops, "insert"), after);
        let deleted: Vec<&str> = ops
            .iter()
            .filter(|o| o.op == "delete")
            .map(|o| o.text.trim())
            .collect();
        assert_eq!(deleted, ["brown", "jumps"]);
    }

    #[test]
    fn blocks_are_matched_by_id_and_removed_ones_stay_in_place() {
        let before = [para("a", "one"), para("b", "two words"), para("c", "three")];
        let after = [
            para("a", "one"),
            para("c", "three and more"),
            para("d", "new"),
        ];
        let (diff, summary) = compare_blocks(&before, &after);
        let changes: Vec<(&str, BlockChange)> =
            diff.iter().map(|d| (d.id.as_str(), d.change)).collect();
        assert_eq!(
            changes,
            [
                ("a", BlockChange::Unchanged),
                ("b", BlockChange::Removed),
                ("c", BlockChange::Changed),
                ("d", BlockChange::Added)
            ]
        );
        assert_eq!(
            summary,
            ChangeSummary {
                blocks_added: 1,
                blocks_removed: 1,
                blocks_changed: 1,
                words_added: 3,
                words_removed: 2
            }
        );
    }

    #[test]
    fn fields_outside_the_blocks_are_compared() {
        let a = Snapshot {
            title: "Hello".into(),
            blocks: vec![],
            thumbnail: None,
            category: None,
            tags: vec!["rust".into()],
            visibility: "Public".into(),
            audience: "everyone".into(),
        };
        let mut b = a.clone();
        b.tags.push("web".into());
        b.title = "Hello there".into();
        let c = compare(&a, &b);
        assert!(c.title.changed);
        assert_eq!(c.fields.len(), 1);
        assert_eq!(c.fields[0].field, "tags");
        assert_eq!(c.summary.words_added, 1);
        assert_ne!(a.fingerprint(), b.fingerprint());
        assert_eq!(a.fingerprint(), a.clone().fingerprint());
    }
}
